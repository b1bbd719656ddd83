import AnalyticsHub
import AnalyticsProvidersCore

/// Amplitude's documented limits.
///
/// Sources:
/// - [V2] Amplitude, "HTTP V2 API", https://amplitude.com/docs/apis/analytics/http-v2 — `event_type`
///   required; validation of reserved event types and of `user_id`/`device_id` length (5 or
///   more characters unless `min_id_length` is overridden), as quoted in the `amplitude` npm
///   changelog v5.0.2 on socket.dev.
/// - [BATCH] Amplitude, "Batch Event Upload API" — "Device IDs and user IDs must be strings of 5
///   characters or more. If an event has an ID that's too short, the ID value is dropped from the
///   event. If an event has no user or device ID, the API may reject the upload with a 400 error."
/// Not confirmed in this session (kept because Amplitude documents them elsewhere; treat as
/// best knowledge): the exact list of invalid ID values, the exact list of reserved event types
/// (we check the `[Amplitude] ` prefix and `$identify`/`$groupidentify`), and the 1024-character
/// truncation of string property values.
public enum AmplitudeRules: ProviderRuleSet {
  public static let providerID: ProviderID = "amplitude"

  static let minimumIDLength = 5
  static let maxStringLength = 1024
  static let invalidIDs: Set<String> = [
    "null", "(null)", "nil", "none", "undefined", "unknown", "anonymous", "0", "-1",
    "00000000-0000-0000-0000-000000000000",
  ]
  static let reservedEventTypes: Set<String> = ["$identify", "$groupidentify"]

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      switch call.method {
      case "track":
        let eventType = call.name ?? ""
        if eventType.isEmpty {
          // [V2] event_type is required.
          violations.append(
            RuleViolation(
              rule: "amplitude.event-type-missing",
              message: "track: the event type is empty; Amplitude rejects events without an event_type",
              consequence: .rejected, callIndex: index))
        } else if eventType.hasPrefix("[Amplitude]") || reservedEventTypes.contains(eventType) {
          // [V2] reserved event types (list not confirmed, see above).
          violations.append(
            RuleViolation(
              rule: "amplitude.event-type-reserved",
              message: "track '\(eventType)': this event type is reserved for Amplitude's own events",
              consequence: .rejected, callIndex: index))
        }
        checkStrings(
          call.parameters, method: "track '\(TextChecks.excerpt(eventType))'", index: index, into: &violations
        )
      case "identify":
        checkStrings(call.parameters, method: "identify", index: index, into: &violations)
      case "setUserId", "setDeviceId":
        if let id = call.name { checkID(id, method: call.method, index: index, into: &violations) }
      default:
        break
      }
    }
  }

  static func checkID(_ id: String, method: String, index: Int, into violations: inout [RuleViolation]) {
    let kind = method == "setUserId" ? "user ID" : "device ID"
    if invalidIDs.contains(id.lowercased()) {
      // Invalid ID values (list not confirmed, see above).
      violations.append(
        RuleViolation(
          rule: "amplitude.id-invalid",
          message:
            "\(method): '\(id)' is a placeholder Amplitude treats as an invalid \(kind); it is ignored",
          consequence: .dropped, callIndex: index))
    } else if id.count < minimumIDLength {
      // [V2]/[BATCH] IDs of fewer than 5 characters are dropped from the event.
      violations.append(
        RuleViolation(
          rule: "amplitude.id-length",
          message:
            "\(method): the \(kind) '\(id)' has \(id.count) characters; Amplitude requires at least "
            + "\(minimumIDLength) and drops shorter IDs from the event",
          consequence: .dropped, callIndex: index))
    }
  }

  static func checkStrings(
    _ properties: Properties, method: @autoclosure () -> String, index: Int,
    into violations: inout [RuleViolation]
  ) {
    for (key, value) in properties {
      guard case .string(let text) = value, text.utf8.count > maxStringLength else { continue }
      let length = text.count
      guard length > maxStringLength else { continue }
      // 1024-character string limit (not confirmed, see above).
      violations.append(
        RuleViolation(
          rule: "amplitude.string-length",
          message:
            "\(method()): property '\(key)' is \(length) characters; Amplitude keeps the first "
            + "\(maxStringLength)",
          consequence: .truncated, callIndex: index))
    }
  }
}
