import AdobeProvider
import AmplitudeProvider
import AnalyticsHub
import AnalyticsProvidersCore
import BatchProvider
import BrazeProvider
import FPTIProvider
import FirebaseProvider
import MixpanelProvider
import PianoProvider
import SegmentProvider
import TagscopeVendors

/// Every provider's documented rules, looked up by provider identifier, for calls that are not
/// typed: SDK traffic received by `tagscope listen`, recordings, the tagging-plan validator.
///
/// The typed providers built by `Firebase.provider(…)`, `Amplitude.provider(…)`… run exactly the
/// same code on their typed calls, so a rule fires the same way live and on a recording.
///
/// Recorded calls are expected in the SDK's own vocabulary: `method` is the SDK method
/// (`logEvent`, `track`, `sendEvent`…), `name` the event, screen, state, action or property name
/// and `parameters` the SDK's parameters (Firebase `setUserProperty` carries its value under
/// `value`, Amplitude `setUserId` its identifier as `name`; see each call type's documentation).
public enum ProviderRules {
  /// The rule sets, one per provider.
  public static let ruleSets: [any ProviderRuleSet.Type] = [
    FirebaseRules.self, AmplitudeRules.self, SegmentRules.self, PianoRules.self, BrazeRules.self,
    AdobeRules.self, BatchRules.self, MixpanelRules.self, FPTIRules.self,
  ]

  /// The identifiers rules are known for.
  public static var knownProviders: [String] { ruleSets.map { $0.providerID.rawValue } }

  /// The rule set for a provider identifier or one of its aliases (case-insensitive, as
  /// ``Vendors`` lists them), or of the vendor whose rules its descriptor says it follows
  /// (``Vendor/rulesOf``: GA4's requests follow Firebase's rules).
  public static func ruleSet(for provider: String) -> (any ProviderRuleSet.Type)? {
    guard let vendor = Vendors.vendor(named: provider) else { return nil }
    let id = vendor.rulesOf ?? vendor.id
    return ruleSets.first { $0.providerID == id }
  }

  /// The rules `calls` break at `provider`; an unknown provider has no rules (`[]`).
  public static func check(provider: String, calls: [CallDescription]) -> [RuleViolation] {
    guard let rules = ruleSet(for: provider) else { return [] }
    return rules.check(calls)
  }
}
