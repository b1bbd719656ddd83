import AnalyticsHub
import TagscopeVendors

extension AmplitudeEndpoint {
  /// Where Amplitude's events name their sender (``Vendor/amplitude``'s identity fields).
  static let identityReader = IdentityReader(Vendor.amplitude, "event")

  /// Who sent an Amplitude event: a visitor without user is known by the device; a `session_id`
  /// of `-1` means outside a session.
  static func identity(_ event: Properties) -> DeviceIdentity {
    var identity = identityReader.identity { event[$0] }
    if identity.userID == nil { identity.anonymousID = identity.deviceID }
    if let session = identity.sessionID, (Int(session) ?? 0) < 0 { identity.sessionID = nil }
    return identity
  }
}
