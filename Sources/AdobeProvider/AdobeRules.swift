import AnalyticsHub
import AnalyticsProvidersCore

/// Adobe Analytics (mobile) rules.
///
/// Sources:
/// - [METHODS] Adobe Mobile Services, "Analytics methods" (iOS),
///   https://experienceleague.adobe.com/docs/mobile-services/ios/analytics-ios/analytics-methods.html —
///   "If state is empty, it displays as app name app version (build) in reports".
/// - [LIFECYCLE] Adobe Mobile Services, "Lifecycle metrics",
///   https://experienceleague.adobe.com/docs/mobile-services/android/metrics.html — the SDK's own
///   context data lives in the `a.` namespace (`a.InstallEvent`, `a.LaunchEvent`…), so an app key
///   starting with `a.` collides with it.
/// Not confirmed in this session: that context data names may only contain letters, digits,
/// underscores and dots (Adobe's "Context data variables" page for AppMeasurement, as
/// remembered); other characters are reported as degrading processing rules.
public enum AdobeRules: ProviderRuleSet {
  public static let providerID: ProviderID = "adobe"

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      let method = call.method
      guard method == "trackState" || method == "trackAction" else { continue }
      let name = call.name ?? ""
      if method == "trackState", name.isEmpty {
        // [METHODS] empty state.
        violations.append(
          RuleViolation(
            rule: "adobe.state-empty",
            message:
              "trackState with an empty state: reports show 'app name app version (build)' instead of a screen",
            consequence: .degraded, callIndex: index))
      }
      for (key, _) in call.parameters {
        if key.hasPrefix("a.") {
          // [LIFECYCLE] the `a.` namespace belongs to the SDK.
          violations.append(
            RuleViolation(
              rule: "adobe.context-key-reserved",
              message:
                "\(method) '\(TextChecks.excerpt(name))': context data key '\(key)' uses Adobe's reserved 'a.' "
                + "namespace and collides with the SDK's own data",
              consequence: .degraded, callIndex: index))
        } else if key.isEmpty || !key.utf8.allSatisfy(isContextKeyByte) {
          // Characters outside letters, digits, '_' and '.' (not confirmed, see above).
          violations.append(
            RuleViolation(
              rule: "adobe.context-key-characters",
              message:
                "\(method) '\(TextChecks.excerpt(name))': context data key '\(TextChecks.excerpt(key))' should only "
                + "use letters, digits, '_' and '.'; processing rules may not match it",
              consequence: .degraded, callIndex: index))
        }
      }
    }
  }

  @inline(__always)
  static func isContextKeyByte(_ byte: UInt8) -> Bool {
    TextChecks.isASCIILetter(byte) || TextChecks.isASCIIDigit(byte) || byte == 0x5F || byte == 0x2E
  }
}
