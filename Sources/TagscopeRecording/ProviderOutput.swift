import AnalyticsHub

/// What one provider did with a record's tag: an element of `outputs`.
public struct ProviderOutput: Sendable, Hashable {
  /// Provider identifier (`provider`).
  public var provider: String
  /// `sent`, `dropped`, `blocked`, `failed` (`status`).
  public var status: OutputStatus
  /// Why it was blocked (`consent`, `disabled`) or how it failed (`reason`).
  public var reason: String?
  /// The exact calls the SDK received (`calls`; absent when empty).
  public var calls: [CallDescription]
  /// The provider's documented rules the calls break (`violations`; absent when empty).
  public var violations: [RecordViolation]
  /// Fields this version does not know, in the order read.
  public var extra: Properties

  /// An output.
  public init(
    provider: String, status: OutputStatus, reason: String? = nil, calls: [CallDescription] = [],
    violations: [RecordViolation] = [], extra: Properties = [:]
  ) {
    self.provider = provider
    self.status = status
    self.reason = reason
    self.calls = calls
    self.violations = violations
    self.extra = extra
  }
}

/// A provider rule broken by a call: an element of `outputs[].violations`.
public struct RecordViolation: Sendable, Hashable {
  /// `provider.rule-name` (`rule`).
  public var rule: String
  /// A plain sentence (`message`).
  public var message: String
  /// What the SDK does: `dropped`, `truncated`, `replaced`, `rejected`, `degraded` (`consequence`).
  public var consequence: String
  /// Index of the offending call among the output's calls (`callIndex`).
  public var callIndex: Int?
  /// The SDK's error code, if it reports one (`errorCode`).
  public var errorCode: Int?

  /// A violation.
  public init(
    rule: String, message: String, consequence: String, callIndex: Int? = nil, errorCode: Int? = nil
  ) {
    self.rule = rule
    self.message = message
    self.consequence = consequence
    self.callIndex = callIndex
    self.errorCode = errorCode
  }

  /// The record of a hub rule violation.
  public init(_ violation: RuleViolation) {
    self.init(
      rule: violation.rule, message: violation.message, consequence: violation.consequence.rawValue,
      callIndex: violation.callIndex, errorCode: violation.errorCode)
  }
}

/// A problem the hub reported with a tag: an element of `issues`.
public struct RecordIssue: Sendable, Hashable {
  /// Stable identifier (`code`), e.g. `timedEventNotStarted`.
  public var code: String
  /// A sentence naming the tag and value (`message`).
  public var message: String

  /// An issue.
  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  /// The record of a hub issue.
  public init(_ issue: HubIssue) { self.init(code: issue.code.rawValue, message: issue.message) }
}
