import AnalyticsHub
import AnalyticsProvidersCore

/// PayPal FPTI rules.
///
/// Source: seed 004, "iOS Analytics State of the Union" (gist by hyperspacemark): FPTI events
/// carry an event type, one of `ac` (activity), `cl` (click), `im` (impression), `rd`
/// (redirect), `ua` (user action), next to a name and a category. FPTI is PayPal-internal: what its
/// collector does with a missing or unknown type could not be confirmed, so both are reported as
/// degrading the data rather than as a rejection.
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
      guard let type = parameters["e"] else {
        violations.append(
          RuleViolation(
            rule: "fpti.event-type-missing",
            message: "event '\(TextChecks.excerpt(name))': no event type 'e' (ac, cl, im, rd or ua)",
            consequence: .degraded, callIndex: index))
        continue
      }
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
