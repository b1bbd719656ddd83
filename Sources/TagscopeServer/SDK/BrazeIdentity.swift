import AnalyticsHub
import TagscopeVendors

extension BrazeEndpoint {
  /// Where Braze's events and attributes name their sender (``Vendor/braze``'s identity fields).
  static let identityReader = IdentityReader(Vendor.braze, "event")

  /// Who sent an event or attribute object: its own fields (`user_id`, `session_id`), else the
  /// request's (`device_id`, `user_id`, `device.model`). An anonymous user is known by the device.
  static func identity(_ object: Properties, _ request: Properties) -> DeviceIdentity {
    var identity = identityReader.identity { object[$0] ?? request[$0] }
    if identity.userID == nil { identity.anonymousID = identity.deviceID }
    return identity
  }
}
