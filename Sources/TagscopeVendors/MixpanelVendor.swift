extension Vendor {
  /// Mixpanel: the in-app provider and its SDKs' ingestion API.
  public static let mixpanel = Vendor(
    id: "mixpanel", name: "Mixpanel", paths: [.inApp, .sdk],
    endpoints: [
      Endpoint("/track", "Mixpanel: track (POST, GET)", .mixpanelAPI, .mixpanel(.track)),
      Endpoint("/import", "Mixpanel: import", .mixpanelAPI, .mixpanel(.importEvents)),
      Endpoint("/engage", "Mixpanel: people (engage)", .mixpanelAPI, .mixpanel(.engage)),
      Endpoint("/groups", "Mixpanel: groups", .mixpanelAPI, .mixpanel(.groups)),
    ],
    messages: MessageFields(
      messageID: [MessageIDPath("$insert_id", method: "track")], properties: .parameters,
      // mixpanel-python's `Mixpanel.track` adds `token`, `distinct_id`, `time`, `$insert_id`,
      // `mp_lib`, `$lib_version`; mixpanel-swift's AutomaticProperties the `$`-named device fields
      // and `mp_lib`; Mixpanel's default properties are all named `$…` or `mp_…`
      // (docs.mixpanel.com/docs/data-structure/property-reference/default-properties).
      sdkProperties: SDKProperties(names: ["distinct_id", "time", "token"], prefixes: ["$", "mp_"])),
    identity: [
      // mixpanel-swift's Track, AutomaticProperties and SessionMetadata; an anonymous `distinct_id`
      // is the device's (`$device:<id>`); Android's `$identify` names the id before.
      IdentityFields(
        form: "track", root: "the message; properties. its properties",
        user: ["properties.$user_id", "properties.distinct_id"], device: ["properties.$device_id"],
        anonymous: ["properties.distinct_id"], previous: ["properties.$anon_distinct_id"],
        session: ["$mp_metadata.$mp_session_id"], platform: ["properties.$os"], model: ["properties.$model"]),
      IdentityFields(form: "profile", root: "the message", user: ["$distinct_id"], device: ["$distinct_id"]),
    ],
    proxyHosts: [
      ProxyHost("api.mixpanel.com", "Mixpanel"),
      ProxyHost("api-js.mixpanel.com", "Mixpanel (JavaScript)"),
      ProxyHost("api-eu.mixpanel.com", "Mixpanel (EU)"),
      ProxyHost("api-in.mixpanel.com", "Mixpanel (India)"),
    ],
    callStyle: CallStyle(
      callType: "MixpanelCall", namespace: "Mixpanel", defaultMethod: "track",
      calls: [
        CallTemplate("track", ".track(event: {name}, properties: {parameters})"),
        CallTemplate("people.set", ".peopleSet({parameters})", name: .absent),
        CallTemplate("registerSuperProperties", ".registerSuperProperties({parameters})", name: .absent),
      ]), limits: [.mixpanelIngest, .mixpanelImport],
    rebuild: [.mixpanelTrack, .mixpanelEngage])
}

extension Vendor.Shape {
  /// Mixpanel's ingestion API: a form field `data=` (JSON or base64 JSON) by GET or POST, or a
  /// JSON body.
  public static let mixpanelAPI = Vendor.Shape(
    methods: ["POST", "GET"],
    contentTypes: ["application/x-www-form-urlencoded", "application/json", "text/plain"],
    encodings: ["form data= (JSON or base64 JSON)", "JSON"], auth: "token in each message's properties")
}

extension Vendor.Limit {
  /// Mixpanel's ingestion: 1 MB of JSON a request and an event, 2,000 messages
  /// (developer.mixpanel.com/reference/track-event › Limits).
  public static let mixpanelIngest = Vendor.Limit(
    paths: ["/track", "/engage", "/groups"], requestBytes: 1024 * 1024,
    eventBytes: 1024 * 1024, eventsPerRequest: 2_000, pastIt: "400 with status and error",
    source: "developer.mixpanel.com/reference/track-event (Limits)")

  /// Mixpanel's import: 10 MB and 2,000 events a request, 1 MB an event; an oversized event is
  /// listed in `failed_records` on a `400` and the others imported
  /// (docs.mixpanel.com/troubleshooting/errors/413-payload-too-large, …/400-bad-request).
  public static let mixpanelImport = Vendor.Limit(
    paths: ["/import"], requestBytes: 10 * 1024 * 1024, eventBytes: 1024 * 1024,
    eventsPerRequest: 2_000, pastIt: "400 with failed_records, the other events imported",
    source: "docs.mixpanel.com/troubleshooting/errors/413-payload-too-large")
}

extension Vendor.Rebuild {
  /// mixpanel-swift's `/track`: the form field `data=` the event, its token back among its
  /// properties (mixpanel/mixpanel-swift `Sources/Network.swift` `BasePath.DefaultMixpanelAPI`,
  /// `Flush.swift` `FlushType.events`, `FlushRequest.swift` `"data=" + body`).
  public static let mixpanelTrack = Vendor.Rebuild(
    method: "track", url: "https://api.mixpanel.com/track", mimeType: "application/x-www-form-urlencoded",
    body: .formEvent(field: "data", credential: "token"),
    summary: "its message as the data= form field, with its token")

  /// mixpanel-swift's `/engage`: the form field `data=` the profile update, which keeps its
  /// `$token` (the same files, `FlushType.people`).
  public static let mixpanelEngage = Vendor.Rebuild(
    method: "engage", url: "https://api.mixpanel.com/engage", mimeType: "application/x-www-form-urlencoded",
    body: .formMessage(field: "data"), summary: "its message as the data= form field, with its token")
}
