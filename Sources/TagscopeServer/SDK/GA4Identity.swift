import AnalyticsHub

extension GA4Endpoint {
  /// Who sent a GA4 Measurement Protocol request.
  ///
  /// Fields as Google's Measurement Protocol reference documents them (there is no official client
  /// library to read): `client_id` (a web stream's gtag.js client) or `app_instance_id` (a Firebase
  /// app), `user_id`, the optional `device` object (`operating_system`, `model`), and per event the
  /// `session_id` parameter (`ga_session_id` as gtag.js names it).
  static func identity(request: Properties, params: Properties) -> DeviceIdentity {
    let device = Payload.object(request["device"])
    let userID = Payload.string(request["user_id"])
    let deviceID = Payload.string(request["app_instance_id"]) ?? Payload.string(request["client_id"])
    return DeviceIdentity(
      deviceID: deviceID, platform: Payload.string(device["operating_system"]),
      model: Payload.string(device["model"]), userID: userID, anonymousID: userID == nil ? deviceID : nil,
      sessionID: Payload.string(params["session_id"]) ?? Payload.string(params["ga_session_id"]))
  }
}
