import AnalyticsHub
import AnalyticsProvidersCore

extension BrazeRules {
  /// Every rule ``BrazeRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule(
      "braze.event-name-missing", "custom events have a name", .dropped, Source.brazeSwift, confirmed: false,
      note: "SDK behaviour, not stated in the consulted pages"),
    rule("braze.key-dollar", "keys do not start with $", .dropped, Source.brazeProperties),
    rule("braze.key-length", "keys 1–255 characters", .dropped, Source.brazeProperties),
    rule(
      "braze.property-key-reserved", "no time or event_name property", .rejected, Source.brazeEventProperties),
    rule(
      "braze.property-value-length", "string property values at most 255 characters", .truncated,
      Source.brazeProperties),
    rule(
      "braze.attribute-value-length", "string attributes at most 255 characters", .truncated,
      Source.brazeTypes),
    rule(
      "braze.purchase-currency", "purchase currency is a 3-letter ISO 4217 code", .dropped,
      Source.brazePurchases,
      confirmed: false, note: "not re-checked in this session"),
  ]
}

private enum Source {
  static let brazeEventProperties =
    "https://www.braze.com/docs/user_guide/data/activation/events/custom_events/custom_event_properties"
  static let brazeProperties =
    "https://braze-inc.github.io/braze-android-sdk/kdoc/braze-android-sdk/com.braze.models.outgoing/-braze-properties/"
  static let brazePurchases = "https://www.braze.com/docs/developer_guide/analytics/logging_purchases/"
  static let brazeSwift =
    "https://www.braze.com/docs/developer_guide/platforms/swift/analytics/tracking_custom_events"
  static let brazeTypes = "https://www.braze.com/docs/user_guide/data/activation/custom_data/data_types/"
}
