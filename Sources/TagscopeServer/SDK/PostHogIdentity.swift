import AnalyticsHub
import TagscopeVendors

extension PostHogEndpoint {
  /// Where PostHog's events name their sender (``Vendor/posthog``'s identity fields).
  static let identityReader = IdentityReader(Vendor.posthog, "event")

  /// Who sent a PostHog event: a `distinct_id` equal to `$device_id`, or `$is_identified: false`,
  /// is an anonymous visitor; an event without device id is known by its `distinct_id`.
  static func identity(_ message: Properties, properties: Properties) -> DeviceIdentity {
    var identity = identityReader.identity { $0 == "properties" ? .object(properties) : message[$0] }
    let distinctID = identity.anonymousID
    let identified: Bool
    if case .bool(let flag)? = properties["$is_identified"] {
      identified = flag
    } else {
      identified = identity.deviceID == nil || distinctID != identity.deviceID
    }
    identity.deviceID = identity.deviceID ?? distinctID
    identity.userID = identified ? identity.userID : nil
    identity.anonymousID = identified ? nil : distinctID
    return identity
  }
}
