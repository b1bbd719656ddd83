import AnalyticsHub
import TagscopeVendors

extension PianoEndpoint {
  /// Where Piano Analytics' events name their sender (``Vendor/piano``'s identity fields).
  static let identityReader = IdentityReader(Vendor.piano, "event")

  /// Who sent a Piano event: the SDK's properties of its data (`user_id`, `app_sessionid`,
  /// `device_model`…), else the query's visitor (`idclient`), which is also the anonymous id.
  static func identity(_ sdk: Properties, visitor: String?) -> DeviceIdentity {
    var identity = identityReader.identity { key in
      sdk[key] ?? (key == "idclient" ? visitor.map(PropertyValue.string) : nil)
    }
    if identity.userID == nil { identity.anonymousID = identity.deviceID }
    return identity
  }
}
