import AnalyticsHub
import TagscopeVendors

extension MixpanelEndpoint {
  /// Where `/track` and `/import` messages name their sender (``Vendor/mixpanel``'s identity fields).
  static let trackReader = IdentityReader(Vendor.mixpanel, "track")
  /// Where `/engage` and `/groups` messages name who they are about.
  static let profileReader = IdentityReader(Vendor.mixpanel, "profile")

  /// Who sent a Mixpanel `/track` or `/import` message: a `distinct_id` that names the device is
  /// no user; a message without device id is known by its `distinct_id`.
  static func trackIdentity(_ message: Properties, properties: Properties) -> DeviceIdentity {
    let root: (String) -> PropertyValue? = { $0 == "properties" ? .object(properties) : message[$0] }
    let reader = trackReader
    let deviceID = IdentityReader.first(reader.device, in: root)
    let userID = IdentityReader.first(reader.user, in: root) { isAnonymous($0, deviceID: deviceID) }
    let known = deviceID ?? IdentityReader.first(reader.anonymous, in: root)
    return DeviceIdentity(
      deviceID: known, platform: IdentityReader.first(reader.platform, in: root),
      model: IdentityReader.first(reader.model, in: root), userID: userID,
      anonymousID: userID == nil ? known : nil, previousID: IdentityReader.first(reader.previous, in: root),
      sessionID: IdentityReader.first(reader.session, in: root))
  }

  /// Who an `/engage` or `/groups` message is about: its `$distinct_id`.
  static func profileIdentity(_ message: Properties) -> DeviceIdentity {
    let distinctID = IdentityReader.first(profileReader.user, in: { message[$0] })
    let anonymous = distinctID.map { isAnonymous($0, deviceID: nil) } ?? true
    return DeviceIdentity(
      deviceID: IdentityReader.first(profileReader.device, in: { message[$0] }),
      userID: anonymous ? nil : distinctID, anonymousID: anonymous ? distinctID : nil)
  }

  /// Whether `distinctID` names the device rather than a user.
  static func isAnonymous(_ distinctID: String, deviceID: String?) -> Bool {
    distinctID == deviceID || distinctID.hasPrefix("$device:")
  }
}
