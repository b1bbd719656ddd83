import AnalyticsHub
import AnalyticsProvidersCore

extension AmplitudeRules {
  /// Every rule ``AmplitudeRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule("amplitude.event-type-missing", "event_type required", .rejected, Source.amplitudeV2),
    rule(
      "amplitude.event-type-reserved", "not a reserved event type", .rejected, Source.amplitudeV2,
      confirmed: false,
      note:
        "reserved types are validated; the exact list ([Amplitude] …, $identify, $groupidentify) is our reading"
    ),
    rule("amplitude.id-length", "user and device IDs at least 5 characters", .dropped, Source.amplitudeBatch),
    rule(
      "amplitude.id-invalid", "not a placeholder ID (null, anonymous, 0…)", .dropped, Source.amplitudeV2,
      confirmed: false,
      note: "the exact list of invalid IDs was not confirmed"),
    rule(
      "amplitude.string-length", "string property values at most 1024 characters", .truncated,
      Source.amplitudeV2,
      confirmed: false, note: "not confirmed in the consulted pages"),
  ]
}

private enum Source {
  static let amplitudeBatch = "https://amplitude.com/docs/apis/analytics/batch-event-upload"
  static let amplitudeV2 = "https://amplitude.com/docs/apis/analytics/http-v2"
}
