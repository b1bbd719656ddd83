import AnalyticsHub
import TagscopeVendors

extension AdobeAnalyticsHit {
  /// Where a hit names its sender (``Vendor/adobe``'s identity fields of `hit`).
  static let identityReader = IdentityReader(Vendor.adobe, "hit")

  /// The root key under which the decoder puts the first customer id the app synced as
  /// authenticated (`cid.<type>.id` whose `cid.<type>.as` is `1`): which type names the user is
  /// the app's choice, so finding it is logic, not a place.
  static let authenticatedKey = "authenticatedCustomerID"

  /// Who sent a hit, from its variables (`mid` the Experience Cloud ID, `aid` the legacy
  /// Analytics id, `vid` the visitor id the app set, then its authenticated customer id).
  static func identity(_ fields: AdobeHitFields) -> DeviceIdentity {
    identityReader.identity { key in
      key == authenticatedKey ? authenticatedCustomerID(fields.variables) : fields.variables[key]
    }
  }

  /// The first `cid.<type>.id` of `variables` whose `cid.<type>.as` is `1` (authenticated).
  private static func authenticatedCustomerID(_ variables: Properties) -> PropertyValue? {
    for (key, value) in variables where key.hasPrefix("cid.") && key.hasSuffix(".id") {
      let type = key.dropLast(".id".count)
      if Payload.string(variables["\(type).as"]) == "1" { return value }
    }
    return nil
  }
}

extension AdobeEdgeEndpoint {
  /// Where an Edge request names its sender (``Vendor/adobe``'s identity fields of `edge`).
  static let identityReader = IdentityReader(Vendor.adobe, "edge")

  /// The root key under which the decoder puts the first identity of the request's `identityMap`
  /// (any namespace but ECID) whose `authenticatedState` is `authenticated`: which namespace
  /// names the user is the app's choice, so finding it is logic, not a place.
  static let authenticatedKey = "authenticatedIdentity"

  /// Who sent an Edge request, from its fields (`xdm.identityMap`).
  static func identity(request: Properties) -> DeviceIdentity {
    let authenticated = Self.authenticated(request)
    return identityReader.identity { key in
      key == authenticatedKey ? authenticated.map(PropertyValue.object) : request[key]
    }
  }

  private static func authenticated(_ request: Properties) -> Properties? {
    let map = Payload.object(Payload.object(request["xdm"])["identityMap"])
    for (namespace, items) in map where namespace != "ECID" {
      for item in Payload.array(items) ?? [] {
        let identity = Payload.object(item)
        if Payload.text(identity["authenticatedState"]) == "authenticated" { return identity }
      }
    }
    return nil
  }
}
