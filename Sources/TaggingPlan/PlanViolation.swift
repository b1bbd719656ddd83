import TagscopeRecording

/// A record that breaks the plan: which rule, how bad, which provider, and a plain sentence naming
/// the place in the record and in the plan.
///
/// Everything but `seq` is shared between the violations of identical records (a long recording
/// repeats the same broken tag thousands of times), so a violation costs 16 bytes and one
/// reference count. That shared part keeps what the plan expected and what the record carried
/// (``comparison``); where each record is (file, line, time, source) is in the report's
/// `ValidationReport.sites` (TaggingPlanReports).
public struct PlanViolation: Sendable, Hashable {
  /// The record's sequence number.
  public var seq: UInt64
  private let detail: Detail

  private final class Detail: Sendable {
    let severity: Severity
    let rule: ViolationRule
    let tag: String
    let provider: String?
    let message: String
    let planLine: Int?
    let coverageItem: Int?
    let planFile: String?
    let evidence: ViolationEvidence?

    init(
      severity: Severity, rule: ViolationRule, tag: String, provider: String?, message: String,
      planLine: Int?, coverageItem: Int?, planFile: String?, evidence: ViolationEvidence?
    ) {
      self.severity = severity
      self.rule = rule
      self.tag = tag
      self.provider = provider
      self.message = message
      self.planLine = planLine
      self.coverageItem = coverageItem
      self.planFile = planFile
      self.evidence = evidence
    }
  }

  public var severity: Severity { detail.severity }
  public var rule: ViolationRule { detail.rule }
  /// The tag's name.
  public var tag: String { detail.tag }
  /// The provider concerned, if any.
  public var provider: String? { detail.provider }
  /// "playPodcast on favorites: firebase got play_podcast_from_podcasts, plan line 18 expects
  /// play_podcast_from_favorites".
  public var message: String { detail.message }
  /// The plan line the violation cites, if any.
  public var planLine: Int? { detail.planLine }
  /// The coverage item it fails (for JUnit); `nil` for unplanned tags.
  public var coverageItem: Int? { detail.coverageItem }
  /// The plan file the violation cites, when the validator made it.
  public var planFile: String? { detail.planFile }
  /// What the plan expected beside what the record carried, row by row with the differences
  /// marked: the debugger's "expected vs got" view.
  public var comparison: ExpectationComparison {
    ExpectationComparison(violation: self, evidence: detail.evidence)
  }
  package var evidence: ViolationEvidence? { detail.evidence }

  /// The identity of the part shared between the violations of identical records (everything but
  /// `seq`), valid while a violation holding it lives.
  package var detailIdentity: ObjectIdentifier { ObjectIdentifier(detail) }

  /// Whether `other` is a violation of an identical record (the same shared detail, payload
  /// included).
  package func sharesDetail(with other: PlanViolation) -> Bool { detail === other.detail }

  /// Whether this is the plan's `provider-rule` report of a rule violation the record's output
  /// already carries (the hub's finding): one violation, which the record shows as its own.
  public var restatesRecordedRule: Bool {
    guard case .providerRule(let rule, let output) = detail.evidence else { return false }
    return output.violations.contains(rule)
  }

  /// A violation.
  public init(
    seq: UInt64, severity: Severity, rule: ViolationRule, tag: String, provider: String? = nil,
    message: String,
    planLine: Int? = nil, coverageItem: Int? = nil
  ) {
    self.init(
      seq: seq, severity: severity, rule: rule, tag: tag, provider: provider, message: message,
      planLine: planLine, coverageItem: coverageItem, planFile: nil, evidence: nil)
  }

  /// A violation with what the plan expected and what the record carried.
  init(
    seq: UInt64, severity: Severity, rule: ViolationRule, tag: String, provider: String? = nil,
    message: String, planLine: Int? = nil, coverageItem: Int? = nil, planFile: String?,
    evidence: ViolationEvidence?
  ) {
    self.seq = seq
    detail = Detail(
      severity: severity, rule: rule, tag: tag, provider: provider, message: message, planLine: planLine,
      coverageItem: coverageItem, planFile: planFile, evidence: evidence)
  }

  public static func == (lhs: PlanViolation, rhs: PlanViolation) -> Bool {
    lhs.seq == rhs.seq
      && (lhs.detail === rhs.detail
        || (lhs.severity == rhs.severity && lhs.rule == rhs.rule && lhs.tag == rhs.tag
          && lhs.provider == rhs.provider && lhs.message == rhs.message && lhs.planLine == rhs.planLine
          && lhs.coverageItem == rhs.coverageItem))
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(seq)
    hasher.combine(rule)
    hasher.combine(tag)
    hasher.combine(provider)
    hasher.combine(message)
  }
}
