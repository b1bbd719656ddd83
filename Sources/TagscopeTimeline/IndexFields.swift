import TagscopeRecording

/// The fields of a record the timeline's index needs, without the rest of the record.
struct IndexFields: Equatable {
  /// A provider's output as the index sees it.
  struct Output: Equatable {
    var provider: String
    var status: Status
    /// Blocked because the provider is disabled (`reason` is `disabled`).
    var disabled: Bool
  }

  enum Status: UInt8 {
    case sent
    case dropped
    case blocked
    case failed
    case other
  }

  var seq: UInt64 = 0
  var time: Int64 = 0
  var kind = ""
  var name = ""
  var source: String?
  var outputs: [Output] = []
  var hasRuleViolations = false
  var hasIssues = false
  var hasContext = false
  /// `properties.scope` when it is a string, `properties.granted` when a boolean (consent records).
  var consentScope: String?
  var consentGranted: Bool?

  init() {}

  /// The fields of a decoded record.
  init(_ record: Record) {
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
    hasIssues = !record.issues.isEmpty
    hasContext = record.context != RecordContext()
    consentScope = record.properties["scope"]?.stringValue
    consentGranted = record.properties["granted"]?.boolValue
  }

  /// The consent decision of a consent record.
  func consentDecision(index: Int) -> ConsentDecision? {
    guard kind == RecordKind.consent.rawValue, let consentScope, let consentGranted else { return nil }
    return ConsentDecision(scope: consentScope, granted: consentGranted, index: index)
  }
}
