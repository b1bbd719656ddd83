import AnalyticsHub

extension SegmentEndpoint {
  /// Who sent a Segment or RudderStack message.
  ///
  /// Fields as the SDKs send them:
  /// - segmentio/analytics-swift `Sources/Segment/Plugins/Context.swift` and segmentio/analytics-kotlin
  ///   `android/src/main/java/com/segment/analytics/kotlin/android/plugins/AndroidContextPlugin.kt`:
  ///   `context.app.name`, `context.device.id` (identifierForVendor / ANDROID_ID, `""` when unknown),
  ///   `context.device.model`, `context.os.name`.
  /// - rudderlabs/rudder-sdk-ios `Sources/Classes/Client/Plugins/RSContextPlugin.swift`: the same keys;
  ///   `RSUserSessionPlugin.swift`: `context.sessionId`.
  /// - Browsers (analytics.js) and server libraries send no device: `anonymousId` names the visitor.
  static func identity(_ message: Properties) -> DeviceIdentity {
    let context = Payload.object(message["context"])
    let device = Payload.object(context["device"])
    let anonymousID = DeviceIdentity.present(Payload.string(message["anonymousId"]))
    let isAlias = Payload.string(message["type"]) == "alias"
    return DeviceIdentity(
      deviceID: DeviceIdentity.present(Payload.string(device["id"])) ?? anonymousID,
      app: Payload.string(Payload.object(context["app"])["name"]),
      platform: Payload.string(Payload.object(context["os"])["name"]),
      model: Payload.string(device["model"]),
      userID: Payload.string(message["userId"]),
      anonymousID: anonymousID,
      previousID: isAlias ? Payload.string(message["previousId"]) : nil,
      sessionID: Payload.string(context["sessionId"]))
  }
}
