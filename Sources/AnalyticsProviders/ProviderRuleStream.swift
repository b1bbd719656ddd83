import AnalyticsHub
import AnalyticsProvidersCore
import FirebaseProvider

/// Checks recorded calls record after record, keeping what a provider counts across calls (the
/// 500 Firebase event types and 25 user properties of an app instance), for `tagscope listen`
/// and the tagging-plan validator reading a whole session.
///
/// Keep one stream per app instance (per recording or per connected device).
public struct ProviderRuleStream: RecordedRuleStream {
  private var firebaseUsage: [String: FirebaseUsage] = [:]

  /// A stream with nothing counted yet.
  public init() {}

  /// The rules `calls` break at `provider`, counting with the calls checked before; an unknown
  /// provider has no rules (`[]`). Call indexes are positions in `calls`.
  public mutating func check(provider: String, calls: [CallDescription]) -> [RuleViolation] {
    guard let rules = ProviderRules.ruleSet(for: provider) else { return [] }
    guard rules.providerID == FirebaseRules.providerID else { return rules.check(calls) }
    var violations: [RuleViolation] = []
    // Counted in place: a copy of the sets would be copied again by each new name.
    FirebaseRules.check(
      calls, usage: &firebaseUsage[provider.lowercased(), default: FirebaseUsage()], into: &violations)
    return violations
  }

  /// The rules one recorded provider outcome breaks.
  public mutating func check(_ outcome: ProviderOutcome) -> [RuleViolation] {
    check(provider: outcome.provider.rawValue, calls: outcome.calls)
  }
}
