import AnalyticsHub
import TagscopeVendors

extension GA4Endpoint {
  /// Where a Measurement Protocol request names its sender (``Vendor/ga4``'s identity fields).
  static let identityReader = IdentityReader(Vendor.ga4, "measurement protocol")

  /// Who sent a GA4 Measurement Protocol request (`params` are the event's): a visitor without
  /// user is known by the client.
  static func identity(request: Properties, params: Properties) -> DeviceIdentity {
    var identity = identityReader.identity { $0 == "params" ? .object(params) : request[$0] }
    if identity.userID == nil { identity.anonymousID = identity.deviceID }
    return identity
  }
}

extension GA4GtagEndpoint {
  /// Where a gtag.js hit names its sender (``Vendor/ga4``'s identity fields).
  static let identityReader = IdentityReader(Vendor.ga4, "gtag")

  /// Who sent a gtag.js hit, from its fields: a visitor without user is known by the client.
  static func identity(_ fields: [String: String]) -> DeviceIdentity {
    var identity = identityReader.identity { fields[$0].map(PropertyValue.string) }
    if identity.userID == nil { identity.anonymousID = identity.deviceID }
    return identity
  }
}
