import AnalyticsHub

/// What happened at one provider, as the validator reads it from a record.
public struct OutputFacts: Sendable, Hashable {
  /// `sent`, `dropped`, `blocked` or `failed`.
  public enum Status: String, Sendable, Hashable {
    case sent
    case dropped
    case blocked
    case failed
  }

  public var provider: String
  public var status: Status
  /// Why it was blocked (`consent`, `disabled`) or why it failed.
  public var reason: String?
  public var calls: [CallDescription]
  /// The provider's rules the calls break, as the hub recorded them.
  public var violations: [RuleViolation]

  /// An output.
  public init(
    provider: String, status: Status, reason: String? = nil, calls: [CallDescription] = [],
    violations: [RuleViolation] = []
  ) {
    self.provider = provider
    self.status = status
    self.reason = reason
    self.calls = calls
    self.violations = violations
  }
}

/// The parts of a record the validator checks: sequence number, kind, name, properties, current
/// screen and per-provider outputs.
public struct RecordFacts: Sendable, Hashable {
  public var seq: UInt64
  /// The record's kind; `nil` for a kind this version does not know (never checked).
  public var kind: TagKind?
  public var name: String
  public var properties: Properties
  /// The current screen when the tag was sent.
  public var screen: String?
  public var outputs: [OutputFacts]

  /// Facts.
  public init(
    seq: UInt64, kind: TagKind?, name: String, properties: Properties = [:], screen: String? = nil,
    outputs: [OutputFacts] = []
  ) {
    self.seq = seq
    self.kind = kind
    self.name = name
    self.properties = properties
    self.screen = screen
    self.outputs = outputs
  }

  /// The facts of a hub dispatch, as an attached inspector would record them.
  public init(_ dispatch: Dispatch) {
    self.init(
      seq: dispatch.seq, kind: dispatch.kind, name: dispatch.name, properties: dispatch.properties,
      screen: dispatch.context.screen,
      outputs: dispatch.outcomes.map { outcome in
        let status: OutputFacts.Status
        var reason: String?
        switch outcome.status {
        case .sent: status = .sent
        case .dropped: status = .dropped
        case .blocked(let why):
          status = .blocked
          reason = why.rawValue
        case .failed(let message):
          status = .failed
          reason = message
        }
        return OutputFacts(
          provider: outcome.provider.rawValue, status: status, reason: reason, calls: outcome.calls,
          violations: outcome.violations)
      })
  }
}
