import AnalyticsHub
import TagscopeVendors

/// Where each provider's SDK message, as `tagscope listen` records it, holds an event's
/// properties: the `propertiesAt` an imported catalogue gets, so one entry checks in-app calls
/// and SDK messages alike. Read from the vendor registry (``Vendor/MessageFields``).
enum SDKMessagePaths {
  /// The dotted path of the event's properties in a message `provider`'s SDK sends; `nil` when the
  /// recorded call's parameters are the properties themselves (Mixpanel) or the provider is unknown.
  static func eventProperties(provider: String) -> String? {
    fields(provider)?.properties.path
  }

  /// Where the event properties a Segment-shaped plan describes sit in a message `provider`'s SDK
  /// sends: ``eventProperties(provider:)``, `properties` for a provider Tagscope does not know,
  /// `nil` (the parameters themselves) for Mixpanel.
  static func segmentPlanProperties(provider: String) -> String? {
    fields(provider)?.properties == .parameters ? nil : eventProperties(provider: provider) ?? "properties"
  }

  /// The method `listen` records a provider's track call under: PostHog's `capture`, else `track`.
  static func trackMethod(provider: String) -> String { fields(provider)?.trackMethod ?? "track" }

  /// Where an mParticle event (`{"event_type", "data"}`) holds its custom attributes.
  static let mParticleAttributes = Vendor.mparticle.messages?.properties.path ?? ""

  private static func fields(_ provider: String) -> Vendor.MessageFields? {
    Vendors.vendor(ProviderID(rawValue: provider))?.messages
  }
}
