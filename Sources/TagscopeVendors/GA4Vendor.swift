extension Vendor {
  /// Google Analytics 4 as its web (gtag.js) and Measurement Protocol requests reach `listen`; its
  /// rules are Firebase's.
  public static let ga4 = Vendor(
    id: "ga4", name: "Google Analytics 4 (Measurement Protocol, gtag)", paths: [.sdk],
    endpoints: [
      Endpoint(
        "/mp/collect", "GA4: Measurement Protocol", .ga4MeasurementProtocol,
        .ga4MeasurementProtocol(validation: false)),
      Endpoint(
        "/debug/mp/collect", "GA4: Measurement Protocol validation", .ga4MeasurementProtocol,
        .ga4MeasurementProtocol(validation: true)),
      Endpoint(
        "/g/collect", "GA4: gtag.js",
        Shape(
          methods: ["POST"], contentTypes: ["text/plain"],
          encodings: ["query string", "one event per body line"],
          auth: "tid (measurement id) in the query"),
        .ga4Gtag),
    ],
    messages: MessageFields(messageID: [], properties: .unmapped),
    identity: [
      // Google's Measurement Protocol reference: a web stream's `client_id` or a Firebase app's
      // `app_instance_id`, and per event `session_id` (`ga_session_id` as gtag.js names it).
      IdentityFields(
        form: "measurement protocol", root: "the request; params. the event's parameters", user: ["user_id"],
        device: ["app_instance_id", "client_id"], session: ["params.session_id", "params.ga_session_id"],
        platform: ["device.operating_system"], model: ["device.model"]),
      IdentityFields(
        form: "gtag", root: "the hit's fields", user: ["uid"], device: ["cid"], session: ["sid"]),
    ],
    proxyHosts: [
      ProxyHost("www.google-analytics.com", "GA4 (gtag, Measurement Protocol)"),
      ProxyHost("region1.google-analytics.com", "GA4 (gtag)"),
      ProxyHost("*.google-analytics.com", "GA4 (regional)"),
      ProxyHost("analytics.google.com", "GA4 (gtag)"),
    ],
    rulesOf: Vendor.firebase.id, limits: [.ga4Collect],
    rebuild: [.ga4Gtag, .ga4Validation, .ga4MeasurementProtocol])
}

extension Vendor {
  /// The fields of a Measurement Protocol request's query its records keep (its stream and
  /// secret), which its validator reads and HAR export writes back.
  public static let ga4MeasurementProtocolQuery = ["measurement_id", "firebase_app_id", "api_secret"]
  /// Of those, the secret: a record keeps only that one was given (``ga4KeptSecret``), never its
  /// value, since recordings and their HAR exports are shared (tickets, bug reports).
  public static let ga4SecretQuery: Set<String> = ["api_secret"]
  /// What a record keeps, and a HAR export writes, for a secret given.
  public static let ga4KeptSecret = "redacted"
  /// The field the validation server's (`/debug/mp/collect`) records keep, `true`.
  public static let ga4ValidationMarker = "validation_server"
}

extension Vendor.Shape {
  /// GA4's Measurement Protocol: a JSON body, its credentials in the query.
  public static let ga4MeasurementProtocol = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"], encodings: ["JSON"],
    auth: "measurement_id or firebase_app_id, and api_secret, in the query", queryKeys: ["api_secret"])
}

extension Vendor.Limit {
  /// GA4's Measurement Protocol and gtag.js: 130 kB a request and 25 events
  /// (developers.google.com/analytics/devguides/collection/protocol/ga4/sending-events › Limitations).
  public static let ga4Collect = Vendor.Limit(
    paths: ["/mp/collect", "/debug/mp/collect", "/g/collect"], requestBytes: 130 * 1000,
    eventsPerRequest: 25, pastIt: "413; 204 (validation: EXCEEDED_MAX_ENTITIES) past 25 events",
    source: "developers.google.com/analytics/devguides/collection/protocol/ga4/sending-events (Limitations)")
}

extension Vendor.Rebuild {
  /// gtag.js's `/g/collect` hit as listen keeps it: the query's fields (encoded again), then the
  /// body as sent, one event a line; the records of one hit share its entry.
  public static let ga4Gtag = Vendor.Rebuild(
    method: "gtag", url: "https://www.google-analytics.com/g/collect", mimeType: "text/plain;charset=UTF-8",
    body: .keptHit,
    summary: "the hit listen kept, its query fields encoded again (one entry for the records of one hit)")
}

extension Vendor.Rebuild {
  /// A Measurement Protocol request gathered from the records of one request (each keeps the
  /// request with its own event, and its `event_index` past the first): the events in their
  /// places, so the validator's messages name the same index; its stream and secret in the query.
  public static let ga4MeasurementProtocol = Vendor.Rebuild(
    method: "logEvent", url: "https://www.google-analytics.com/mp/collect", mimeType: "application/json",
    body: ga4Gathered,
    summary:
      "the Measurement Protocol request of this record and the records after it, its stream and (redacted) secret in the query"
  )

  /// A request to the Measurement Protocol's validation server, as ``ga4MeasurementProtocol``.
  public static let ga4Validation = Vendor.Rebuild(
    method: "logEvent", marker: Vendor.ga4ValidationMarker,
    url: "https://www.google-analytics.com/debug/mp/collect", mimeType: "application/json",
    body: ga4Gathered,
    summary:
      "the validation server request of this record and the records after it, its stream and (redacted) secret in the query"
  )

  private static let ga4Gathered = Vendor.RebuildBody.gatheredBodies(
    events: "events", index: "event_index",
    query: Vendor.ga4MeasurementProtocolQuery.map { Vendor.QueryField($0, as: $0) },
    eventTime: ["timestamp_micros"])
}
