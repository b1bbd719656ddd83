import AnalyticsHub
import AnalyticsProvidersCore

extension AdobeRules {
  /// Every rule ``AdobeRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule("adobe.state-empty", "trackState has a state name", .degraded, Source.adobeMethods),
    rule(
      "adobe.context-key-reserved", "context data keys outside the a. namespace", .degraded,
      Source.adobeLifecycle),
    rule(
      "adobe.context-key-characters", "context data keys use letters, digits, '_' and '.'", .degraded,
      Source.adobeMethods, confirmed: false, note: "not confirmed in the consulted pages"),
  ]
}

private enum Source {
  static let adobeLifecycle = "https://experienceleague.adobe.com/docs/mobile-services/android/metrics.html"
  static let adobeMethods =
    "https://experienceleague.adobe.com/docs/mobile-services/ios/analytics-ios/analytics-methods.html"
}
