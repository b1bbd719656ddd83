import AnalyticsHub
import AnalyticsProvidersCore
import TagscopeVendors

/// The providers' documented rules a plan check applies to recorded calls, on top of the rule
/// violations a record already carries (those the hub found when the app sent the tag).
///
/// An app's test target names the rule sets of the providers it links, as an array:
/// `PlanTestRun(plan: plan, rules: [FirebaseRules.self])`. The tools (`TaggingPlanReports`) add
/// `.allProviders`, every provider's rules counting across records as each SDK does, and the
/// initialisers without `rules:` that use it.
public struct ProviderRuleChecks: Sendable, ExpressibleByArrayLiteral {
  private let start: @Sendable () -> any RecordedRuleStream

  /// Rules kept by the streams `start` makes: one per app instance (per recording or `listen`
  /// source), so counts across records start from zero for each.
  public init(stream start: @escaping @Sendable () -> some RecordedRuleStream) {
    self.start = start
  }

  /// The rules of `ruleSets`, each checking one record's calls at a time (no count across records),
  /// looked up by provider id or alias as `Vendors` (in TagscopeVendors) lists them, and by the
  /// vendor whose rules a vendor follows (GA4's follow Firebase's).
  public init(_ ruleSets: [any ProviderRuleSet.Type]) {
    start = { RuleSetStream(ruleSets: ruleSets) }
  }

  /// ``init(_:)`` from an array literal: `[FirebaseRules.self, AmplitudeRules.self]`.
  public init(arrayLiteral ruleSets: any ProviderRuleSet.Type...) {
    self.init(ruleSets)
  }

  /// No rules: only the violations the records carry are reported.
  public static let recordedOnly = ProviderRuleChecks([])

  /// A stream with nothing counted yet, for a new app instance.
  func makeStream() -> any RecordedRuleStream { start() }
}

/// Rule sets checking each record's calls alone.
private struct RuleSetStream: RecordedRuleStream {
  let ruleSets: [any ProviderRuleSet.Type]

  func check(provider: String, calls: [CallDescription]) -> [RuleViolation] {
    guard !ruleSets.isEmpty, let vendor = Vendors.vendor(named: provider) else { return [] }
    let id = vendor.rulesOf ?? vendor.id
    guard let rules = ruleSets.first(where: { $0.providerID == id }) else { return [] }
    return rules.check(calls)
  }
}
