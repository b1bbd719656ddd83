import AnalyticsHub
import AnalyticsProvidersCore

extension SegmentRules {
  /// Every rule ``SegmentRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule("segment.event-name-missing", "track has an event name", .rejected, Source.segmentHTTP),
    rule(
      "segment.identifier-missing", "identify, group and alias carry their ID", .rejected, Source.segmentHTTP,
      confirmed: false,
      note: "an empty identify userId degrades (anonymous only); group/alias rejection is our reading"),
    rule(
      "segment.identity-missing", "a recorded message has a userId or an anonymousId", .rejected,
      Source.segmentHTTP),
    rule("segment.message-size", "at most 32 KB per message", .rejected, Source.segmentHTTP),
  ]
}

private enum Source {
  static let segmentHTTP = "https://segment.com/docs/connections/sources/catalog/libraries/server/http-api/"
}
