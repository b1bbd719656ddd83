import AnalyticsHub

extension SnowplowEndpoint {
  /// Who sent a Snowplow tracker payload.
  ///
  /// Fields as the trackers send them (snowplow/snowplow-ios-tracker `Sources/Core/TrackerConstants.swift`):
  /// `aid` (the app id), `p` (platform: `mob`, `web`, `pc`…), `uid` (the user set with `setUserId`),
  /// `duid` (the browser's domain user id, also settable on the Python subject) and `sid` (its session);
  /// on mobile, the `client_session` context (`userId`, the install's id, and `sessionId`) and the
  /// `mobile_context` context (`osType`, `deviceModel`).
  static func identity(field: (String) -> String?, contexts: PropertyValue?) -> DeviceIdentity {
    let session = context(named: "client_session", in: contexts)
    let mobile = context(named: "mobile_context", in: contexts)
    return DeviceIdentity(
      deviceID: field("duid") ?? Payload.string(session["userId"]), app: field("aid"),
      platform: Payload.string(mobile["osType"]) ?? field("p"), model: Payload.string(mobile["deviceModel"]),
      userID: field("uid"), sessionID: Payload.string(session["sessionId"]) ?? field("sid"))
  }

  /// The data of the first context whose schema is `iglu:<vendor>/<name>/jsonschema/<version>`.
  static func context(named name: String, in contexts: PropertyValue?) -> Properties {
    for entry in Payload.array(Payload.object(contexts)["data"]) ?? [] {
      let context = Payload.object(entry)
      if let schema = Payload.string(context["schema"]), schemaName(schema) == name {
        return Payload.object(context["data"])
      }
    }
    return [:]
  }
}
