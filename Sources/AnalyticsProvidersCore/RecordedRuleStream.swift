import AnalyticsHub

/// Checks recorded calls (``CallDescription``s of SDK traffic, of a recording, of a dispatch)
/// against providers' documented rules, record after record, keeping what a provider counts across
/// calls. The tagging-plan validator takes one per app instance (per recording or `listen` source).
public protocol RecordedRuleStream: Sendable {
  /// The rules `calls` break at `provider`, counting with the calls checked before; a provider
  /// the stream has no rules for breaks none (`[]`). Call indexes are positions in `calls`.
  mutating func check(provider: String, calls: [CallDescription]) -> [RuleViolation]
}
