/// A record that breaks the plan: which rule, how bad, which provider, and a plain sentence naming
/// the place in the record and in the plan.
public struct PlanViolation: Sendable, Hashable {
  /// The record's sequence number.
  public var seq: UInt64
  public var severity: Severity
  public var rule: ViolationRule
  /// The tag's name.
  public var tag: String
  /// The provider concerned, if any.
  public var provider: String?
  /// "playPodcast on favorites: firebase got play_podcast_from_podcasts, plan line 18 expects
  /// play_podcast_from_favorites".
  public var message: String
  /// The plan line the violation cites, if any.
  public var planLine: Int?
  /// The coverage item it fails (for JUnit); `nil` for unplanned tags.
  public var coverageItem: Int?

  /// A violation.
  public init(
    seq: UInt64, severity: Severity, rule: ViolationRule, tag: String, provider: String? = nil,
    message: String,
    planLine: Int? = nil, coverageItem: Int? = nil
  ) {
    self.seq = seq
    self.severity = severity
    self.rule = rule
    self.tag = tag
    self.provider = provider
    self.message = message
    self.planLine = planLine
    self.coverageItem = coverageItem
  }
}
