import AnalyticsHub
import AnalyticsProvidersCore

extension PianoRules {
  /// Every rule ``PianoRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule(
      "piano.event-name-missing", "sendEvent has a name", .dropped, Source.pianoStandard, confirmed: false,
      note: "the collector's response to an unnamed event is not documented"),
    rule("piano.page-display-page", "page.display carries page", .degraded, Source.pianoStandard),
    rule("piano.click-name", "click.* carries click", .degraded, Source.pianoStandard),
    rule(
      "piano.click-type", "click events are action, navigation, download or exit", .degraded,
      Source.pianoStandard),
    rule(
      "piano.property-key-length", "property keys at most 40 characters", .dropped, Source.pianoProperties,
      confirmed: false, note: "the limit is documented; the consequence is our reading"),
    rule(
      "piano.string-length", "STRING values at most 255", .truncated, Source.pianoProperties,
      confirmed: false,
      note: "the limit is documented; the consequence is our reading"),
  ]
}

private enum Source {
  static let pianoProperties = "https://support.piano.io/hc/en-us/articles/4465980791314-Properties"
  static let pianoStandard =
    "https://developers.atinternet-solutions.com/piano-analytics/data-collection/how-to-send-events/standard-events"
}
