import AnalyticsHub

extension MParticleEndpoint {
  /// Who sent an mParticle batch.
  ///
  /// Fields as mParticle/mparticle-python-sdk's models name them (`mparticle/models/batch.py`,
  /// `device_information.py`, `application_information.py`, `user_identities.py`,
  /// `event_data.py`): the device is `mp_deviceid`, else the vendor or Android id, else an
  /// advertising id; the user is `user_identities.customerid`, else its `email`; `mpid` (the
  /// profile mParticle keeps, known or anonymous) is the anonymous id; the session is the event's
  /// `session_uuid`, else its `session_id`.
  static func identity(_ batch: Properties, data: Properties) -> DeviceIdentity {
    let device = Payload.object(batch["device_info"])
    let app = Payload.object(batch["application_info"])
    let identities = Payload.object(batch["user_identities"])
    let deviceID = ["ios_idfv", "android_uuid", "ios_advertising_id", "android_advertising_id"].lazy
      .compactMap { DeviceIdentity.present(Payload.string(device[$0])) }.first
    return DeviceIdentity(
      deviceID: DeviceIdentity.present(Payload.string(batch["mp_deviceid"])) ?? deviceID,
      app: DeviceIdentity.present(Payload.string(app["application_name"])) ?? Payload.string(app["package"]),
      platform: Payload.string(device["platform"]),
      model: Payload.string(device["device_model"]),
      userID: DeviceIdentity.present(Payload.string(identities["customerid"]))
        ?? Payload.string(identities["email"]),
      anonymousID: Payload.string(batch["mpid"]),
      sessionID: DeviceIdentity.present(Payload.string(data["session_uuid"]))
        ?? Payload.string(data["session_id"]))
  }
}
