import AnalyticsHub
import TagscopeVendors

extension MParticleEndpoint {
  /// Where an Events API batch names its sender (``Vendor/mparticle``'s identity fields).
  static let identityReader = IdentityReader(Vendor.mparticle, "events api")

  /// Who sent an mParticle batch (`data` is the event's).
  static func identity(_ batch: Properties, data: Properties) -> DeviceIdentity {
    identityReader.identity { $0 == "event" ? .object(data) : batch[$0] }
  }
}

extension MParticleIdentityEndpoint {
  /// Where an IDSync request names its sender (``Vendor/mparticle``'s identity fields).
  static let identityReader = IdentityReader(Vendor.mparticle, "idsync")
}
