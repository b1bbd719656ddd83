import AnalyticsHub

extension MixpanelEndpoint {
  /// Who sent a Mixpanel `/track` or `/import` message.
  ///
  /// Fields as the SDKs send them: mixpanel/mixpanel-swift `Sources/Track.swift` puts `distinct_id`,
  /// `$device_id` (the anonymous id) and, once identified, `$user_id` in the properties;
  /// `Sources/AutomaticProperties.swift` adds `$os` and `$model`; `Sources/SessionMetadata.swift`
  /// adds `$mp_metadata.$mp_session_id` beside `event` and `properties`. An anonymous
  /// `distinct_id` is `$device:<id>`. mixpanel/mixpanel-android `MixpanelAPI.java` sends `$identify`
  /// with `$anon_distinct_id`, the id before. Server libraries send only `distinct_id`, the user.
  static func trackIdentity(_ message: Properties, properties: Properties) -> DeviceIdentity {
    let distinctID = Payload.string(properties["distinct_id"])
    let deviceID = Payload.string(properties["$device_id"])
    let userID =
      Payload.string(properties["$user_id"])
      ?? distinctID.flatMap { isAnonymous($0, deviceID: deviceID) ? nil : $0 }
    return DeviceIdentity(
      deviceID: deviceID ?? distinctID, platform: Payload.string(properties["$os"]),
      model: Payload.string(properties["$model"]), userID: userID,
      anonymousID: userID == nil ? deviceID ?? distinctID : nil,
      previousID: Payload.string(properties["$anon_distinct_id"]),
      sessionID: Payload.string(Payload.object(message["$mp_metadata"])["$mp_session_id"]))
  }

  /// Who an `/engage` or `/groups` message is about: its `$distinct_id`.
  static func profileIdentity(_ message: Properties) -> DeviceIdentity {
    let distinctID = Payload.string(message["$distinct_id"])
    let anonymous = distinctID.map { isAnonymous($0, deviceID: nil) } ?? true
    return DeviceIdentity(
      deviceID: distinctID, userID: anonymous ? nil : distinctID, anonymousID: anonymous ? distinctID : nil)
  }

  /// Whether `distinctID` names the device rather than a user.
  static func isAnonymous(_ distinctID: String, deviceID: String?) -> Bool {
    distinctID == deviceID || distinctID.hasPrefix("$device:")
  }
}
