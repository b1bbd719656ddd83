/// The fields of a record the timeline's index needs, without the rest of the record.
package struct IndexFields: Equatable {
  /// A provider's output as the index sees it.
  package struct Output: Equatable {
    package var provider: String
    package var status: Status
    /// Blocked because the provider is disabled (`reason` is `disabled`).
    package var disabled: Bool
  }

  package enum Status: UInt8 {
    case sent
    case dropped
    case blocked
    case failed
    case other
  }

  package var seq: UInt64 = 0
  package var time: Int64 = 0
  package var kind = ""
  package var name = ""
  package var source: String?
  package var outputs: [Output] = []
  package var hasRuleViolations = false
  /// How many rule violations the outputs carry (the hub's findings).
  package var ruleViolationCount = 0
  package var hasIssues = false
  package var hasContext = false
  /// `properties.scope` when it is a string, `properties.granted` when a boolean (consent records).
  package var consentScope: String?
  package var consentGranted: Bool?

  package init() {}

  /// The fields of a decoded record.
  package init(_ record: Record) {
    seq = record.seq
    time = record.timeMilliseconds
    kind = record.kind.rawValue
    name = record.name
    source = record.source
    outputs = record.outputs.map { output in
      let status: Status
      switch output.status {
      case .sent: status = .sent
      case .dropped: status = .dropped
      case .blocked: status = .blocked
      case .failed: status = .failed
      default: status = .other
      }
      return Output(provider: output.provider, status: status, disabled: output.reason == "disabled")
    }
    hasRuleViolations = record.hasViolations
    ruleViolationCount = record.outputs.reduce(0) { $0 + $1.violations.count }
    hasIssues = !record.issues.isEmpty
    hasContext = record.context != RecordContext()
    consentScope = record.properties["scope"]?.stringValue
    consentGranted = record.properties["granted"]?.boolValue
  }
}

/// Builds a line's ``IndexFields``: the timeline's index reads every line with it, the rest of
/// each value checked but not built.
package struct IndexFieldsBuilder: RecordBuilder {
  /// The fields of the last line decoded.
  package private(set) var fields = IndexFields()
  private var output = IndexFields.Output(provider: "", status: .other, disabled: false)

  package init() {}

  /// Reads `bytes` with the one record decoder (specialized for this builder here, in its module);
  /// `true` when the line is a record, its fields now in ``fields``.
  package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    (try? RecordDecoder.decode(bytes, into: &self)) == .record
  }

  package mutating func reset() {
    fields.outputs.removeAll(keepingCapacity: true)
    fields.source = nil
    fields.hasRuleViolations = false
    fields.ruleViolationCount = 0
    fields.hasIssues = false
    fields.hasContext = false
    fields.consentScope = nil
    fields.consentGranted = nil
  }

  package mutating func unsigned(_ field: RecordField, _ value: UInt64) { fields.seq = value }

  package mutating func timestamp(_ field: RecordField, _ milliseconds: Int64) { fields.time = milliseconds }

  package mutating func string(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>?) {
    switch field {
    case .kind: fields.kind = String(decoding: bytes!, as: UTF8.self)
    case .name: fields.name = String(decoding: bytes!, as: UTF8.self)
    case .source: fields.source = bytes.map { String(decoding: $0, as: UTF8.self) }
    case .screen: if bytes != nil { fields.hasContext = true }
    case .provider: output.provider = String(decoding: bytes!, as: UTF8.self)
    case .status: output.status = Self.status(bytes!)
    case .reason: output.disabled = bytes.map { $0.equals("disabled") } ?? false
    default: break
    }
  }

  package mutating func stringElement(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>) {
    fields.hasContext = true
  }

  /// `properties`: remembers `scope` (a string) and `granted` (a boolean) for consent records.
  package mutating func freeObject(_ field: RecordField, _ cursor: inout JSONCursor) throws(JSONSyntaxError) {
    guard field == .properties else { return try cursor.skipValue() }
    fields.consentScope = nil
    fields.consentGranted = nil
    try cursor.open()
    var first = true
    while let key = try cursor.nextKey(first: first) {
      first = false
      if key.equals("scope") {
        fields.consentScope = cursor.peek == UInt8(ascii: "\"") ? try cursor.string() : nil
        if fields.consentScope == nil { try cursor.skipValue() }
      } else if key.equals("granted") {
        switch cursor.peek {
        case UInt8(ascii: "t"):
          try cursor.literal("true")
          fields.consentGranted = true
        case UInt8(ascii: "f"):
          try cursor.literal("false")
          fields.consentGranted = false
        default:
          fields.consentGranted = nil
          try cursor.skipValue()
        }
      } else {
        try cursor.skipValue()
      }
    }
  }

  package mutating func absent(_ field: RecordField) {
    switch field {
    case .properties:
      fields.consentScope = nil
      fields.consentGranted = nil
    case .context: fields.hasContext = false
    default: break
    }
  }

  package mutating func begin(_ field: RecordField) {
    switch field {
    case .context: fields.hasContext = false
    case .session: fields.hasContext = true
    case .outputs: output = IndexFields.Output(provider: "", status: .other, disabled: false)
    case .violations:
      fields.hasRuleViolations = true
      fields.ruleViolationCount += 1
    case .issues: fields.hasIssues = true
    default: break
    }
  }

  package mutating func end(_ field: RecordField) {
    if field == .outputs { fields.outputs.append(output) }
  }

  package mutating func beginArray(_ field: RecordField) {
    switch field {
    case .outputs:
      fields.outputs.removeAll(keepingCapacity: true)
      fields.hasRuleViolations = false
      fields.ruleViolationCount = 0
    case .issues: fields.hasIssues = false
    default: break
    }
  }

  package mutating func unknown(_ object: RecordObject, key: String, _ cursor: inout JSONCursor)
    throws(JSONSyntaxError)
  {
    if object == .context { fields.hasContext = true }
    try cursor.skipValue()
  }

  private static func status(_ word: UnsafeBufferPointer<UInt8>) -> IndexFields.Status {
    if word.equals("sent") { return .sent }
    if word.equals("dropped") { return .dropped }
    if word.equals("blocked") { return .blocked }
    if word.equals("failed") { return .failed }
    return .other
  }
}
