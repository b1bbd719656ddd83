import AnalyticsHub
import AnalyticsProvidersCore

extension MixpanelRules {
  /// Every rule ``MixpanelRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule(
      "mixpanel.event-name-missing", "track has an event name", .replaced, Source.mixpanelTrack,
      confirmed: false,
      note: "the Swift SDK's 'mp_event' fallback is remembered from its source, not re-checked"),
    rule("mixpanel.property-count", "fewer than 255 properties", .rejected, Source.mixpanelTrack),
    rule("mixpanel.array-length", "arrays fewer than 255 elements", .rejected, Source.mixpanelTrack),
    rule("mixpanel.object-keys", "nested objects fewer than 255 keys", .rejected, Source.mixpanelTrack),
    rule(
      "mixpanel.insert-id", "$insert_id at most 36 bytes of [A-Za-z0-9-]", .rejected, Source.mixpanelImport),
    rule(
      "mixpanel.string-length", "string values at most 255 bytes", .truncated, Source.mixpanelTypes,
      confirmed: false,
      note: "read through secondary quotes of Mixpanel's docs"),
  ]
}

private enum Source {
  static let mixpanelImport = "https://developer.mixpanel.com/reference/import-events"
  static let mixpanelTrack = "https://developer.mixpanel.com/reference/track-event"
  static let mixpanelTypes = "https://docs.mixpanel.com/docs/data-structure/property-reference/data-type"
}
