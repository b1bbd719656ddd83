import AnalyticsHub
import TagscopeVendors

extension SegmentEndpoint {
  /// Where Segment's and RudderStack's messages name their sender (``Vendor/IdentityFields/segmentMessage``).
  static let identityReader = IdentityReader(Vendor.segment, "message")

  /// Who sent a Segment or RudderStack message; only an alias names the id before.
  static func identity(_ message: Properties) -> DeviceIdentity {
    var identity = identityReader.identity { message[$0] }
    if Payload.string(message["type"]) != "alias" { identity.previousID = nil }
    return identity
  }
}
