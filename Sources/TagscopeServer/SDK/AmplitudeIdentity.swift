import AnalyticsHub

extension AmplitudeEndpoint {
  /// Who sent an Amplitude event.
  ///
  /// Fields as the SDKs send them: amplitude/Amplitude-Swift `Sources/Amplitude/Events/BaseEvent.swift`
  /// (its coding keys) filled by `Sources/Amplitude/Plugins/ContextPlugin.swift`: `device_id`,
  /// `user_id`, `session_id` (`-1` outside a session), `platform`, `os_name`, `device_model`.
  /// Amplitude sends no app name.
  static func identity(_ event: Properties) -> DeviceIdentity {
    let session = event["session_id"].flatMap(Payload.string)
    return DeviceIdentity(
      deviceID: Payload.string(event["device_id"]),
      platform: Payload.string(event["os_name"]) ?? Payload.string(event["platform"]),
      model: Payload.string(event["device_model"]),
      userID: Payload.string(event["user_id"]),
      anonymousID: Payload.string(event["user_id"]) == nil ? Payload.string(event["device_id"]) : nil,
      sessionID: session.flatMap { (Int($0) ?? 0) < 0 ? nil : $0 })
  }
}
