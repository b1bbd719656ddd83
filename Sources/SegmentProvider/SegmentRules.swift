import AnalyticsHub
import AnalyticsProvidersCore

/// Segment's documented limits.
///
/// Sources:
/// - [LIMIT] Segment docs, "HTTP Tracking API limits" (segment-docs `tracking-api-limit.md`,
///   https://segment.com/docs/connections/sources/catalog/libraries/server/http-api/): batches up
///   to 500 KB; "ensure that individual event payload sizes remain below 32 KB".
/// - [HTTP] Segment HTTP API: `track` needs an `event` name; every call needs a `userId` or an
///   `anonymousId`.
/// Not confirmed in this session: the exact server response for an empty `groupId`/alias ID (we
/// report it as rejected, as the Spec marks those fields required).
public enum SegmentRules: ProviderRuleSet {
  public static let providerID: ProviderID = "segment"

  static let maxMessageBytes = 32 * 1024
  /// Bytes every message carries besides the call's own name and parameters (type, ids,
  /// timestamps, context with library, device and OS), a conservative estimate.
  static let envelopeBytes = 600

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      let method = call.method
      guard method != "reset" else { continue }
      let name = call.name ?? ""
      if method == "track", name.isEmpty {
        // [HTTP] `event` is required.
        violations.append(
          RuleViolation(
            rule: "segment.event-name-missing", message: "track: the event name is empty; Segment rejects it",
            consequence: .rejected, callIndex: index))
      }
      if (method == "group" || method == "alias") && name.isEmpty {
        violations.append(
          RuleViolation(
            rule: "segment.identifier-missing",
            message:
              "\(method): the \(method == "group" ? "group ID" : "new user ID") is empty; Segment rejects it",
            consequence: .rejected, callIndex: index))
      } else if method == "identify" && name.isEmpty {
        violations.append(
          RuleViolation(
            rule: "segment.identifier-missing",
            message: "identify: the user ID is empty; the traits attach to the anonymous ID only",
            consequence: .degraded, callIndex: index))
      }
      let parameters = call.parameters
      if let userId = parameters["userId"], let anonymousId = parameters["anonymousId"],
        (userId.stringValue ?? "").isEmpty, (anonymousId.stringValue ?? "").isEmpty
      {
        // [HTTP] a recorded message must carry a userId or an anonymousId.
        violations.append(
          RuleViolation(
            rule: "segment.identity-missing",
            message:
              "\(method) '\(TextChecks.excerpt(name))': neither userId nor anonymousId is set; Segment rejects it",
            consequence: .rejected, callIndex: index))
      }
      let size = envelopeBytes + JSONSize.of(parameters) + name.utf8.count
      if size > maxMessageBytes {
        // [LIMIT] 32 KB per message.
        violations.append(
          RuleViolation(
            rule: "segment.message-size",
            message:
              "\(method) '\(TextChecks.excerpt(name))': the message is about \(size / 1024) KB; Segment accepts "
              + "up to 32 KB per message",
            consequence: .rejected, callIndex: index))
      }
    }
  }
}
