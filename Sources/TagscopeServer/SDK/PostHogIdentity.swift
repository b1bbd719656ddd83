import AnalyticsHub

extension PostHogEndpoint {
  /// Who sent a PostHog event.
  ///
  /// Fields as the SDKs send them:
  /// - PostHog/posthog-ios `PostHog/PostHogContext.swift`: `$app_name`, `$os_name`, `$device_model`,
  ///   `$device_type`; `PostHog/PostHogSDK.swift` (`buildProperties`): `$session_id`, `$is_identified`;
  ///   its `identify` sends `$identify` with the new `distinct_id` and `$anon_distinct_id`.
  /// - PostHog/posthog-js `packages/browser/src/posthog-core.ts`: `$device_id` on every event (a
  ///   `distinct_id` equal to it is an anonymous visitor), `$session_id`; `$os`, `$browser`.
  /// - Server libraries send only `distinct_id`, the user.
  static func identity(_ message: Properties, properties: Properties) -> DeviceIdentity {
    let distinctID = Payload.string(message["distinct_id"]) ?? Payload.string(properties["distinct_id"])
    let deviceID = Payload.string(properties["$device_id"])
    let identified: Bool
    if case .bool(let flag)? = properties["$is_identified"] {
      identified = flag
    } else {
      identified = deviceID == nil || distinctID != deviceID
    }
    let userID = identified ? distinctID : nil
    return DeviceIdentity(
      deviceID: deviceID ?? distinctID, app: Payload.string(properties["$app_name"]),
      platform: Payload.string(properties["$os_name"]) ?? Payload.string(properties["$os"]),
      model: Payload.string(properties["$device_model"]) ?? Payload.string(properties["$browser"]),
      userID: userID, anonymousID: identified ? nil : distinctID,
      previousID: Payload.string(properties["$anon_distinct_id"]),
      sessionID: Payload.string(properties["$session_id"]))
  }
}
