extension Vendor {
  /// Segment: the in-app provider and its SDKs' HTTP API (analytics-swift, -kotlin, analytics.js,
  /// the server libraries), which RudderStack's SDKs speak too.
  public static let segment = Vendor(
    id: "segment", name: "Segment", paths: [.inApp, .sdk],
    endpoints: [
      Endpoint("/v1/batch", "Segment, RudderStack: batch", .segmentAPI, .segment(impliedType: nil)),
      Endpoint("/v1/import", "Segment: import", .segmentAPI, .segment(impliedType: nil)),
      Endpoint(
        "/v1/b", "Segment (analytics-swift, -kotlin, analytics.js): batch", .segmentAPI,
        .segment(impliedType: nil)),
      Endpoint("/v1/track", "Segment, RudderStack: track", .segmentAPI, .segment(impliedType: "track")),
      Endpoint("/v1/t", "Segment analytics.js: track", .segmentAPI, .segment(impliedType: "track")),
      Endpoint("/v1/screen", "Segment, RudderStack: screen", .segmentAPI, .segment(impliedType: "screen")),
      Endpoint("/v1/s", "Segment analytics.js: screen", .segmentAPI, .segment(impliedType: "screen")),
      Endpoint("/v1/page", "Segment, RudderStack: page", .segmentAPI, .segment(impliedType: "page")),
      Endpoint("/v1/p", "Segment analytics.js: page", .segmentAPI, .segment(impliedType: "page")),
      Endpoint(
        "/v1/identify", "Segment, RudderStack: identify; mParticle iOS, Android SDKs: IDSync identify",
        .segmentAPI, .segmentOrMParticleIdentify),
      Endpoint("/v1/i", "Segment analytics.js: identify", .segmentAPI, .segment(impliedType: "identify")),
      Endpoint("/v1/group", "Segment, RudderStack: group", .segmentAPI, .segment(impliedType: "group")),
      Endpoint("/v1/g", "Segment analytics.js: group", .segmentAPI, .segment(impliedType: "group")),
      Endpoint("/v1/alias", "Segment, RudderStack: alias", .segmentAPI, .segment(impliedType: "alias")),
      Endpoint("/v1/a", "Segment analytics.js: alias", .segmentAPI, .segment(impliedType: "alias")),
    ],
    messages: MessageFields(messageID: [MessageIDPath("messageId")], properties: .at("properties")),
    identity: [.segmentMessage],
    proxyHosts: [
      ProxyHost("api.segment.io", "Segment"),
      ProxyHost("events.eu1.segmentapis.com", "Segment (EU)"),
    ],
    importFormats: [
      ImportFormatFacts(
        name: "segment", displayName: "Segment",
        summary: "Segment Protocols: the Config API export or the Public API rules",
        evidenceKeys: [
          "tracking_plans[]", "rules.events", "rules.global", "rules.identify", "[].jsonSchema",
          "rules[].jsonSchema", "data.rules[]", "rules_json_file",
        ])
    ],
    callStyle: CallStyle(
      callType: "SegmentCall", namespace: "Segment", defaultMethod: "track",
      calls: [
        CallTemplate("track", ".track(name: {name}, properties: {parameters})"),
        CallTemplate("screen", ".screen(title: {name}, category: nil, properties: {parameters})"),
        CallTemplate("identify", ".identify(userId: {name}, traits: {parameters})"),
        CallTemplate("group", ".group(groupId: {name}, traits: {parameters})"),
        CallTemplate("alias", ".alias(newId: {name})"),
      ]), limits: [.segmentMessage, .segmentBatch], setupRequests: [.segmentSettings, .segmentTelemetry],
    rebuild: [.segmentBatch])
}

extension Vendor.IdentityFields {
  /// Who sent a Segment (or RudderStack) message: analytics-swift's and analytics-kotlin's context
  /// plugins, rudder-sdk-ios's `RSContextPlugin` and `RSUserSessionPlugin`; browsers and server
  /// libraries send no device, their `anonymousId` names the visitor. `previousId` is an alias's.
  public static let segmentMessage = Vendor.IdentityFields(
    form: "message", root: "the message", user: ["userId"], device: ["context.device.id", "anonymousId"],
    anonymous: ["anonymousId"], previous: ["previousId"], session: ["context.sessionId"],
    app: ["context.app.name"], platform: ["context.os.name"], model: ["context.device.model"])
}

extension Vendor.Shape {
  /// Segment's HTTP API (and RudderStack's): JSON posted as `application/json`, or as
  /// `text/plain` by analytics.js and RudderStack's beacon.
  public static let segmentAPI = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json", "text/plain"], encodings: ["JSON"],
    auth: "basic auth user (the write key), else writeKey in the body")
}

extension Vendor.Limit {
  /// Segment's single calls: 32 KB each (segment.com/docs/connections/sources/catalog/libraries/
  /// server/http-api/ › Max request size; analytics-python `consumer.py` `MAX_MSG_SIZE = 32 << 10`).
  public static let segmentMessage = Vendor.Limit(
    paths: [
      "/v1/track", "/v1/t", "/v1/screen", "/v1/s", "/v1/page", "/v1/p", "/v1/identify", "/v1/i", "/v1/group",
      "/v1/g", "/v1/alias", "/v1/a",
    ],
    requestBytes: 32 * 1024, pastIt: "400 request_too_large",
    source: "segment.com/docs/connections/sources/catalog/libraries/server/http-api/ (Max request size)")

  /// Segment's batches: 500 KB, 32 KB a call, and 2,500 events, past which Segment answers `200`
  /// and drops them (the same page's Errors; analytics-python `BATCH_SIZE_LIMIT = 475000`).
  public static let segmentBatch = Vendor.Limit(
    paths: ["/v1/batch", "/v1/import", "/v1/b"], requestBytes: 500 * 1024,
    eventBytes: 32 * 1024, eventsPerRequest: 2_500,
    pastIt: "400 request_too_large; past 2,500 events 200 and the events dropped",
    source:
      "segment.com/docs/connections/sources/catalog/libraries/server/http-api/ (Max request size, Errors)")
}

extension Vendor.SetupRequest {
  /// analytics-swift's, analytics-kotlin's and analytics.js's settings download.
  public static let segmentSettings = Vendor.SetupRequest(
    methods: ["GET"], path: "/v1/projects/KEY/settings",
    summary: "Segment (analytics-swift, -kotlin, analytics.js): settings; uploads stay on listen",
    reply: .segmentSettings)

  /// analytics.js's own telemetry: taken and ignored.
  public static let segmentTelemetry = Vendor.SetupRequest(
    methods: ["POST"], path: "/v1/m", summary: "Segment analytics.js: its telemetry",
    reply: .fixed(#"{"success":true}"#))
}

extension Vendor.Rebuild {
  /// analytics-swift's upload: its messages in one batch, with its write key
  /// (segmentio/analytics-swift `Sources/Segment/Utilities/Networking/HTTPClient.swift`
  /// `defaultAPIHost` `api.segment.io/v1`, `startBatchUpload` path `/b`; the batch file's
  /// `batch`, `sentAt`, `writeKey`).
  public static let segmentBatch = Vendor.Rebuild(
    url: "https://api.segment.io/v1/b", mimeType: "application/json",
    body: .jsonBatch(messages: "batch", credentials: ["writeKey"]),
    summary: "its messages in one batch, with its write key")
}
