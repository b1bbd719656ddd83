import AnalyticsHub
import AnalyticsProvidersCore

/// PayPal FPTI rules.
///
/// Source: seed 004, "iOS Analytics State of the Union" (gist by hyperspacemark): FPTI events
/// carry an event type, one of `ac` (activity), `cl` (click), `im` (impression), `rd`
/// (redirect), `ua` (user action), next to a name and a category. PayPal's own mobile SDKs send
/// events with no type at all, so a missing one is not reported; an unknown one is. FPTI is
/// PayPal-internal: what its collector does with an unknown type could not be confirmed, so it is
/// reported as degrading the data rather than as a rejection.
public enum FPTIRules: ProviderRuleSet {
  public static let providerID: ProviderID = "fpti"

  static let eventTypes: Set<String> = Set(EventType.allCases.map(\.rawValue))

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      guard call.method == "event" else { continue }
      let name = call.name ?? ""
      if name.isEmpty {
        violations.append(
          RuleViolation(
            rule: "fpti.event-name-missing", message: "event: the event name is empty",
            consequence: .degraded, callIndex: index))
      }
      let parameters = call.parameters
      // No `e` is no defect: PayPal's own SDKs send none (paypal-ios @ 600a97a5
      // `AnalyticsEventData`, braintree_ios @ 181ff3e7 `FPTIBatchData`), so only a type given
      // is checked.
      guard let type = parameters["e"] else { continue }
      if !eventTypes.contains(type.stringValue ?? "") {
        violations.append(
          RuleViolation(
            rule: "fpti.event-type-invalid",
            message:
              "event '\(TextChecks.excerpt(name))': event type 'e' is '\(type.displayText)'; FPTI knows ac, cl, im, rd "
              + "and ua",
            consequence: .degraded, callIndex: index))
      }
    }
  }
}
