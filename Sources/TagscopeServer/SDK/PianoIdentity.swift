import AnalyticsHub
import TagscopeVendors

extension PianoEndpoint {
  /// Where Piano Analytics' events name their sender (``Vendor/piano``'s identity fields).
  static let identityReader = IdentityReader(Vendor.piano, "event")

  /// The visitor ids the SDKs send in place of one when the visitor may not be told apart:
  /// piano-analytics-android `idproviders/VisitorIdProvider.kt` (`opt-out`, `Consent-NO`,
  /// `no-storage`), atinternet-android-sdk `Core.java` (`opt-out`), compared without case. Every
  /// such device sends the same, so none names a device: the connection does.
  static let placeholderVisitors: Set<String> = ["opt-out", "consent-no", "no-storage", "no-consent"]

  /// `visitor`, unless it is missing or a placeholder (``placeholderVisitors``).
  static func device(_ visitor: String?) -> String? {
    guard let visitor, !placeholderVisitors.contains(visitor.lowercased()) else { return nil }
    return visitor
  }

  /// Who sent a Piano event: the SDK's properties of its data (`user_id`, `app_sessionid`,
  /// `device_model`…), else the query's visitor (`idclient`, unless a placeholder), which is also
  /// the anonymous id.
  static func identity(_ sdk: Properties, visitor: String?) -> DeviceIdentity {
    let visitor = device(visitor)
    var identity = identityReader.identity { key in
      sdk[key] ?? (key == "idclient" ? visitor.map(PropertyValue.string) : nil)
    }
    if identity.userID == nil { identity.anonymousID = identity.deviceID }
    return identity
  }
}
