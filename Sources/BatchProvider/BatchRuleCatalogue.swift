import AnalyticsHub
import AnalyticsProvidersCore

extension BatchRules {
  /// Every rule ``BatchRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule("batch.event-name", "event names 1–30 characters of [a-z0-9_]", .dropped, Source.batchTrack),
    rule("batch.event-label-length", "labels 1–200 characters", .dropped, Source.batchTrack),
    rule("batch.event-tag-count", "at most 10 event tags", .dropped, Source.batchEventData),
    rule("batch.event-attribute-count", "at most 15 event attributes", .dropped, Source.batchEventData),
    rule(
      "batch.event-attribute-name", "event attribute keys 1–30 characters of [a-z0-9_]", .dropped,
      Source.batchEventData),
    rule(
      "batch.attribute-name", "attribute names 1–30 characters of [a-z0-9_]", .dropped, Source.batchAttributes
    ),
    rule(
      "batch.attribute-value-length", "string attributes 1–300 characters", .dropped, Source.batchAttributes),
    rule(
      "batch.tag-collection-name", "tag collections 1–30 characters of [a-z0-9_]", .dropped,
      Source.batchAttributes,
      confirmed: false, note: "not confirmed in the consulted pages"),
    rule(
      "batch.tag-length", "tags 1–64 characters", .dropped, Source.batchAttributes, confirmed: false,
      note: "not confirmed in the consulted pages"),
  ]
}

private enum Source {
  static let batchAttributes = "https://doc.batch.com/developer/sdk/ios/profile-data/attributes"
  static let batchEventData =
    "https://pub.dev/documentation/batch_flutter/latest/batch_user/BatchEventData-class.html"
  static let batchTrack =
    "https://pub.dev/documentation/batch_flutter/latest/batch_profile/BatchProfile/trackEvent.html"
}
