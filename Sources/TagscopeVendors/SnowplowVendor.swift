extension Vendor {
  /// Snowplow: its trackers' protocol 2 (its collectors are self-hosted), and its Iglu schemas.
  public static let snowplow = Vendor(
    id: "snowplow", name: "Snowplow", paths: [.sdk],
    endpoints: [
      Endpoint(
        "/com.snowplowanalytics.snowplow/tp2", "Snowplow: tracker protocol 2 (POST, GET)", .snowplowTracker,
        .snowplow),
      Endpoint("/i", "Snowplow: GET pixel", .snowplowTracker, .snowplow),
    ],
    messages: MessageFields(messageID: [MessageIDPath("eid")], properties: .unmapped),
    identity: [
      // snowplow-ios-tracker's TrackerConstants; on mobile the client_session and mobile_context
      // contexts.
      IdentityFields(
        form: "payload", root: "the payload's fields; client_session., mobile_context. those contexts' data",
        user: ["uid"], device: ["duid", "client_session.userId"],
        session: ["client_session.sessionId", "sid"],
        app: ["aid"], platform: ["mobile_context.osType", "p"], model: ["mobile_context.deviceModel"])
    ],
    selfHosted: SelfHosting(option: "snowplow-collector", host: "A Snowplow collector host"),
    importFormats: [
      ImportFormatFacts(
        name: "iglu", displayName: "Snowplow Iglu", summary: "Snowplow Iglu self-describing JSON Schemas",
        evidenceKeys: ["self.vendor", "self.name"])
    ], limits: [.snowplowCollector], rebuild: [.snowplowTracker])
}

extension Vendor.Shape {
  /// Snowplow's tracker protocol 2: a JSON payload by POST, or the query string of a GET.
  public static let snowplowTracker = Vendor.Shape(
    methods: ["POST", "GET"], contentTypes: ["application/json"],
    encodings: ["JSON (POST)", "query string (GET)", "base64 ue_px, cx"], auth: "none")
}

extension Vendor.Limit {
  /// Snowplow's collector: its `maxBytes`, 1 MB by default; an event over it becomes a
  /// size-violation bad row while the collector answers `200`, so no event bound is refused.
  public static let snowplowCollector = Vendor.Limit(
    paths: ["/com.snowplowanalytics.snowplow/tp2", "/i"], requestBytes: 1024 * 1024,
    pastIt: "413", source: "the Snowplow collector's maxBytes (1 MB by default)")
}

extension Vendor.Rebuild {
  /// snowplow-ios-tracker's POST of one event as a `payload_data` (`Sources/Core/TrackerConstants.swift`
  /// `kSPEndpointPost`, `kSPPayloadDataSchema`), or the JavaScript tracker's `GET /i` of its query.
  /// A collector is its customer's own host, which the recording does not keep: the entry names
  /// `snowplow-collector.invalid` (`import-capture --host snowplow-collector.invalid` reads it back).
  public static let snowplowTracker = Vendor.Rebuild(
    url: "https://snowplow-collector.invalid/com.snowplowanalytics.snowplow/tp2",
    mimeType: "application/json",
    body: .keptPayloadData(
      schema: "iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4", getPath: "/i"),
    summary: "the event's payload listen kept, alone in a payload_data, at a placeholder collector host")
}
