import AnalyticsHub
import AnalyticsProvidersCore

/// Braze's documented rules.
///
/// Sources:
/// - [PROPS] Braze Android SDK KDoc, `BrazeProperties`
///   (https://braze-inc.github.io/braze-android-sdk/kdoc/braze-android-sdk/com.braze.models.outgoing/-braze-properties/):
///   "Property keys are non-empty strings <= 255 characters, with no leading dollar signs.
///   Property values are … strings <= 255 characters"; invalid keys are removed; long strings
///   truncated.
/// - [CEP] Braze, "Custom event properties" (user guide): keys non-empty, ≤ 255, no leading `$`;
///   reserved keys return "Invalid 'properties' field".
/// - [SWIFT] Braze, "Tracking custom events" (Swift developer guide): reserved keys `time` and
///   `event_name`.
/// - [TYPES] Braze, "Data types": string custom attributes up to 255 characters.
/// Not confirmed in this session: custom attribute *keys* follow the property key rules (no
/// leading `$`, ≤ 255); logPurchase with a currency other than a 3-letter ISO 4217 code logs a
/// warning and nothing else (Braze's purchase docs, as remembered); an empty event name is
/// ignored by the SDK.
public enum BrazeRules: ProviderRuleSet {
  public static let providerID: ProviderID = "braze"

  static let maxKeyLength = 255
  static let maxStringLength = 255
  static let reservedKeys: Set<String> = ["time", "event_name"]

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      switch call.method {
      case "logCustomEvent":
        let name = call.name ?? ""
        if name.isEmpty {
          violations.append(
            RuleViolation(
              rule: "braze.event-name-missing",
              message: "logCustomEvent: the event name is empty; Braze ignores it",
              consequence: .dropped, callIndex: index))
        }
        checkProperties(
          call.parameters, skipping: 0, method: "logCustomEvent '\(TextChecks.excerpt(name))'",
          index: index, into: &violations)
      case "logPurchase":
        let parameters = call.parameters
        let currency = parameters["currency"]?.stringValue ?? ""
        if currency.utf8.count != 3 || !currency.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) {
          violations.append(
            RuleViolation(
              rule: "braze.purchase-currency",
              message:
                "logPurchase '\(call.name ?? "")': currency '\(currency)' is not a 3-letter ISO 4217 code; Braze "
                + "logs a warning and records nothing",
              consequence: .dropped, callIndex: index))
        }
        checkProperties(
          parameters, skipping: 3, method: "logPurchase '\(call.name ?? "")'", index: index, into: &violations
        )
      case "setCustomAttribute":
        let key = call.name ?? ""
        checkKey(
          key, what: "custom attribute key", method: "setCustomAttribute", index: index, into: &violations)
        if case .string(let text) = call.parameters["value"] ?? .null, text.count > maxStringLength {
          // [TYPES] string attributes up to 255 characters.
          violations.append(
            RuleViolation(
              rule: "braze.attribute-value-length",
              message:
                "setCustomAttribute '\(key)': value is \(text.count) characters; Braze string attributes hold "
                + "\(maxStringLength)",
              consequence: .truncated, callIndex: index))
        }
      default:
        break
      }
    }
  }

  /// Checks event or purchase properties; the first `skipping` parameters are the call's own
  /// fields (purchase currency, price, quantity), not properties.
  static func checkProperties(
    _ properties: Properties, skipping: Int, method: @autoclosure () -> String, index: Int,
    into violations: inout [RuleViolation]
  ) {
    for (position, (key, value)) in properties.enumerated() where position >= skipping {
      checkKey(key, what: "property key", method: method(), index: index, into: &violations)
      if reservedKeys.contains(key) {
        // [SWIFT]/[CEP] reserved keys.
        violations.append(
          RuleViolation(
            rule: "braze.property-key-reserved",
            message: "\(method()): property key '\(key)' is reserved by Braze; the properties are refused",
            consequence: .rejected, callIndex: index))
      }
      if case .string(let text) = value, text.utf8.count > maxStringLength, text.count > maxStringLength {
        // [PROPS] string values ≤ 255 characters.
        violations.append(
          RuleViolation(
            rule: "braze.property-value-length",
            message:
              "\(method()): property '\(key)' is \(text.count) characters; Braze keeps \(maxStringLength)",
            consequence: .truncated, callIndex: index))
      }
    }
  }

  static func checkKey(
    _ key: String, what: String, method: @autoclosure () -> String, index: Int,
    into violations: inout [RuleViolation]
  ) {
    if key.utf8.first == 0x24 {  // "$"
      // [PROPS]/[CEP] no leading dollar sign.
      violations.append(
        RuleViolation(
          rule: "braze.key-dollar",
          message: "\(method()): \(what) '\(key)' starts with '$'; Braze removes it",
          consequence: .dropped, callIndex: index))
    } else if key.isEmpty || key.count > maxKeyLength {
      // [PROPS]/[CEP] non-empty, ≤ 255 characters.
      violations.append(
        RuleViolation(
          rule: "braze.key-length",
          message:
            "\(method()): \(what) '\(TextChecks.excerpt(key))' is \(key.count) characters; Braze takes 1 to "
            + "\(maxKeyLength) and removes it",
          consequence: .dropped, callIndex: index))
    }
  }
}
