import Foundation

/// The one place that knows a record line's shape: every object in it, the fields each has, their
/// names on the wire, the type of each value and which fields are required. The decoder
/// (``RecordDecoder``) walks lines by this table and the encoder (``RecordLineEncoder``) writes
/// the same names; adding a field to the format starts here.
package enum RecordField: UInt8, CaseIterable, Sendable {
  // The record.
  case seq, time, kind, name, eventType, properties, context, outputs, issues, source, raw
  // `context`.
  case screen, history, session, timedEvents
  // `context.session`.
  case sessionID, sessionState, sessionUser, sessionProperties
  // An element of `outputs`.
  case provider, status, reason, calls, violations
  // An element of `outputs[].calls`.
  case method, callName, parameters
  // An element of `outputs[].violations`.
  case rule, message, consequence, callIndex, errorCode
  // An element of `issues`.
  case code, issueMessage

  /// The field's name on the wire.
  package var name: StaticString {
    switch self {
    case .seq: "seq"
    case .time: "time"
    case .kind: "kind"
    case .name, .callName: "name"
    case .eventType: "eventType"
    case .properties, .sessionProperties: "properties"
    case .context: "context"
    case .outputs: "outputs"
    case .issues: "issues"
    case .source: "source"
    case .raw: "raw"
    case .screen: "screen"
    case .history: "history"
    case .session: "session"
    case .timedEvents: "timedEvents"
    case .sessionID: "id"
    case .sessionState: "state"
    case .sessionUser: "user"
    case .provider: "provider"
    case .status: "status"
    case .reason: "reason"
    case .calls: "calls"
    case .violations: "violations"
    case .method: "method"
    case .parameters: "parameters"
    case .rule: "rule"
    case .message, .issueMessage: "message"
    case .consequence: "consequence"
    case .callIndex: "callIndex"
    case .errorCode: "errorCode"
    case .code: "code"
    }
  }

  /// What the field's value must be.
  package var type: RecordFieldType {
    switch self {
    case .seq: .unsigned
    case .time: .timestamp
    case .kind, .name, .sessionID, .sessionState, .provider, .status, .method, .rule, .message, .consequence,
      .code, .issueMessage:
      .string
    case .eventType, .source, .raw, .screen, .sessionUser, .reason, .callName: .optionalString
    case .properties, .sessionProperties, .parameters: .freeObject
    case .history, .timedEvents: .strings
    case .context: .object(.context)
    case .session: .object(.session)
    case .outputs: .objects(.output)
    case .calls: .objects(.call)
    case .violations: .objects(.violation)
    case .issues: .objects(.issue)
    case .callIndex, .errorCode: .optionalInteger
    }
  }

  /// The field's bit in a ``RecordObject``'s masks.
  package var bit: UInt64 { 1 << UInt64(rawValue) }
}

/// What a field's value must be; `null` counts as absent for every optional type (all but
/// `unsigned`, `timestamp` and `string`).
package enum RecordFieldType: Sendable, Equatable {
  /// An integer ≥ 0.
  case unsigned
  /// An ISO 8601 timestamp string.
  case timestamp
  case string
  case optionalString
  case optionalInteger
  /// Any JSON object (or null): properties, parameters.
  case freeObject
  /// An array of strings (or null).
  case strings
  /// One object of the schema (or null).
  case object(RecordObject)
  /// An array of objects of the schema (or null).
  case objects(RecordObject)
}

/// The objects of a record line.
package enum RecordObject: Sendable, Equatable {
  case record, context, session, output, call, violation, issue

  /// Its fields, in the order the encoder writes them.
  package var fields: [RecordField] {
    switch self {
    case .record:
      [.seq, .time, .kind, .name, .eventType, .properties, .context, .outputs, .issues, .source, .raw]
    case .context: [.screen, .history, .session, .timedEvents]
    case .session: [.sessionID, .sessionState, .sessionUser, .sessionProperties]
    case .output: [.provider, .status, .reason, .calls, .violations]
    case .call: [.method, .callName, .parameters]
    case .violation: [.rule, .message, .consequence, .callIndex, .errorCode]
    case .issue: [.code, .issueMessage]
    }
  }

  /// The fields a line must have.
  package var required: [RecordField] {
    switch self {
    case .record: [.seq, .time, .kind, .name]
    case .context: []
    case .session: [.sessionID, .sessionState]
    case .output: [.provider, .status]
    case .call: [.method]
    case .violation: [.rule, .message, .consequence]
    case .issue: [.code, .issueMessage]
    }
  }

  /// Whether unknown fields are kept (in the model's `extra`) or dropped.
  package var keepsUnknownFields: Bool {
    switch self {
    case .record, .context, .session, .output: true
    case .call, .violation, .issue: false
    }
  }

  /// The names of its fields.
  package var names: Set<String> { Set(fields.map(\.text)) }

  /// The field named by `key`, or `nil` for an unknown field: a switch on the key's length, then
  /// one or two byte comparisons (this runs for every key of every line).
  @inline(__always)
  package func field(named key: UnsafeBufferPointer<UInt8>) -> RecordField? {
    @inline(__always)
    func either(_ first: RecordField, _ second: RecordField? = nil) -> RecordField? {
      if first.matches(key) { return first }
      if let second, second.matches(key) { return second }
      return nil
    }
    switch (self, key.count) {
    case (.record, 3): return either(.seq, .raw)
    case (.record, 4): return either(.time, .kind) ?? either(.name)
    case (.record, 6): return either(.issues, .source)
    case (.record, 7): return either(.context, .outputs)
    case (.record, 9): return either(.eventType)
    case (.record, 10): return either(.properties)
    case (.context, 6): return either(.screen)
    case (.context, 7): return either(.history, .session)
    case (.context, 11): return either(.timedEvents)
    case (.session, 2): return either(.sessionID)
    case (.session, 4): return either(.sessionUser)
    case (.session, 5): return either(.sessionState)
    case (.session, 10): return either(.sessionProperties)
    case (.output, 5): return either(.calls)
    case (.output, 6): return either(.status, .reason)
    case (.output, 8): return either(.provider)
    case (.output, 10): return either(.violations)
    case (.call, 4): return either(.callName)
    case (.call, 6): return either(.method)
    case (.call, 10): return either(.parameters)
    case (.violation, 4): return either(.rule)
    case (.violation, 7): return either(.message)
    case (.violation, 9): return either(.callIndex, .errorCode)
    case (.violation, 11): return either(.consequence)
    case (.issue, 4): return either(.code)
    case (.issue, 7): return either(.issueMessage)
    default: return nil
    }
  }

  /// The bits of ``required``.
  @inline(__always)
  package var requiredMask: UInt64 {
    switch self {
    case .record: RecordField.seq.bit | RecordField.time.bit | RecordField.kind.bit | RecordField.name.bit
    case .context: 0
    case .session: RecordField.sessionID.bit | RecordField.sessionState.bit
    case .output: RecordField.provider.bit | RecordField.status.bit
    case .call: RecordField.method.bit
    case .violation: RecordField.rule.bit | RecordField.message.bit | RecordField.consequence.bit
    case .issue: RecordField.code.bit | RecordField.issueMessage.bit
    }
  }
}

extension RecordField {
  /// Whether `key` is this field's name.
  @inline(__always)
  package func matches(_ key: UnsafeBufferPointer<UInt8>) -> Bool { key.equals(name) }
}

/// The fields of a recording's header line and of a drop marker line, which the tree decoder
/// (``RecordLineDecoder``) maps; the record's own fields are ``RecordField``.
package enum LineFields {
  /// A header: `{"format":"tagscope-recording","version":1,"app":…,"device":…,"started":…}`; the
  /// record decoder recognises a header by this field.
  package static let formatName: StaticString = "format"
  package static let format = "\(formatName)"
  package static let version = "version"
  package static let app = "app"
  package static let device = "device"
  package static let started = "started"
  /// A drop marker: `{"dropped":N,"time":…,"afterSeq":…,"by":…}`.
  package static let dropped = "dropped"
  package static let afterSeq = "afterSeq"
  package static let by = "by"
  /// A header's fields, in the order the encoder writes them.
  package static let header = [format, version, app, device, started]
  /// A marker's fields, in the order the encoder writes them.
  package static let marker = [dropped, RecordField.time.text, afterSeq, by]
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether these bytes are exactly `word`'s UTF-8.
  @inline(__always)
  package func equals(_ word: StaticString) -> Bool {
    guard count == word.utf8CodeUnitCount, let base = baseAddress else {
      return count == 0 && word.utf8CodeUnitCount == 0
    }
    return memcmp(base, word.utf8Start, count) == 0
  }
}
