import AnalyticsHub
import Foundation

/// Builds the whole ``Record`` of a line: every field, unknown fields kept in the `extra` of the
/// record, context, session and outputs (first position, last value for a repeated key).
package struct RecordValueBuilder: RecordBuilder {
  private var seq: UInt64 = 0
  private var time: Int64 = 0
  private var kind = ""
  private var name = ""
  private var eventType: EventType?
  private var unknownEventType: String?
  private var properties = Properties()
  private var context = RecordContext()
  private var session = RecordSession(id: "", state: "")
  private var outputs: [ProviderOutput] = []
  private var output = ProviderOutput(provider: "", status: .sent)
  private var call = CallDescription(method: "")
  private var violation = RecordViolation(rule: "", message: "", consequence: "")
  private var issues: [RecordIssue] = []
  private var issue = RecordIssue(code: "", message: "")
  private var source: String?
  private var raw: String?
  private var extra = Properties()
  private var seen = ExtraKeys()

  package init() {}

  /// The record built from the last line decoded.
  package var record: Record {
    var extra = self.extra
    if let unknownEventType { extra.appendUnchecked(RecordField.eventType.text, .string(unknownEventType)) }
    var record = Record(
      seq: seq, time: Date(recordMilliseconds: time), kind: RecordKind(rawValue: kind), name: name,
      properties: properties, eventType: eventType, context: context, outputs: outputs, issues: issues,
      source: source, raw: raw, extra: extra)
    record.timeMilliseconds = time
    return record
  }

  package mutating func reset() { self = RecordValueBuilder() }

  package mutating func unsigned(_ field: RecordField, _ value: UInt64) { seq = value }

  package mutating func timestamp(_ field: RecordField, _ milliseconds: Int64) { time = milliseconds }

  package mutating func string(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>?) {
    let text = bytes.map { String(decoding: $0, as: UTF8.self) }
    switch field {
    case .kind: kind = text ?? ""
    case .name: name = text ?? ""
    case .eventType:
      eventType = nil
      unknownEventType = nil
      if let text {
        if let known = EventType(rawValue: text) { eventType = known } else { unknownEventType = text }
      }
    case .source: source = text
    case .raw: raw = text
    case .screen: context.screen = text
    case .sessionID: session.id = text ?? ""
    case .sessionState: session.state = text ?? ""
    case .sessionUser: session.user = text
    case .provider: output.provider = text ?? ""
    case .status: output.status = OutputStatus(rawValue: text ?? "")
    case .reason: output.reason = text
    case .method: call.method = text ?? ""
    case .callName: call.name = text
    case .rule: violation.rule = text ?? ""
    case .message: violation.message = text ?? ""
    case .consequence: violation.consequence = text ?? ""
    case .code: issue.code = text ?? ""
    case .issueMessage: issue.message = text ?? ""
    default: break
    }
  }

  package mutating func integer(_ field: RecordField, _ value: Int?) {
    if field == .callIndex { violation.callIndex = value } else { violation.errorCode = value }
  }

  package mutating func stringElement(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    if field == .history { context.history.append(text) } else { context.timedEvents.append(text) }
  }

  package mutating func freeObject(_ field: RecordField, _ cursor: inout JSONCursor) throws(JSONSyntaxError) {
    let object = try cursor.object()
    switch field {
    case .properties: properties = object
    case .sessionProperties: session.properties = object
    default: call.parameters = object
    }
  }

  package mutating func absent(_ field: RecordField) {
    switch field {
    case .properties: properties = [:]
    case .sessionProperties: session.properties = [:]
    case .parameters: call.parameters = [:]
    case .context:
      context = RecordContext()
      seen.context = nil
    case .session: context.session = nil
    default: break
    }
  }

  package mutating func begin(_ field: RecordField) {
    switch field {
    case .context:
      context = RecordContext()
      seen.context = nil
    case .session:
      session = RecordSession(id: "", state: "")
      seen.session = nil
    case .outputs:
      output = ProviderOutput(provider: "", status: .sent)
      seen.output = nil
    case .calls: call = CallDescription(method: "")
    case .violations: violation = RecordViolation(rule: "", message: "", consequence: "")
    default: issue = RecordIssue(code: "", message: "")
    }
  }

  package mutating func end(_ field: RecordField) {
    switch field {
    case .session: context.session = session
    case .outputs: outputs.append(output)
    case .calls: output.calls.append(call)
    case .violations: output.violations.append(violation)
    case .issues: issues.append(issue)
    default: break
    }
  }

  package mutating func beginArray(_ field: RecordField) {
    switch field {
    case .history: context.history = []
    case .timedEvents: context.timedEvents = []
    case .outputs: outputs = []
    case .calls: output.calls = []
    case .violations: output.violations = []
    default: issues = []
    }
  }

  package mutating func unknown(_ object: RecordObject, key: String, _ cursor: inout JSONCursor)
    throws(JSONSyntaxError)
  {
    let value = try cursor.value()
    switch object {
    case .record: JSONCursor.insert(key, value, into: &extra, seen: &seen.record)
    case .context: JSONCursor.insert(key, value, into: &context.extra, seen: &seen.context)
    case .session: JSONCursor.insert(key, value, into: &session.extra, seen: &seen.session)
    default: JSONCursor.insert(key, value, into: &output.extra, seen: &seen.output)
    }
  }
}

/// The keys of each `extra` so far, once an object has many (see ``JSONCursor/insert``).
private struct ExtraKeys {
  var record: [String: Int]?
  var context: [String: Int]?
  var session: [String: Int]?
  var output: [String: Int]?
}

extension RecordField {
  /// The field's name as a `String`.
  package var text: String { "\(name)" }
}
