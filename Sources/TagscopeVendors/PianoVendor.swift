extension Vendor {
  /// Piano Analytics (AT Internet): the in-app provider, its SDKs' collection endpoint and AT
  /// Internet's legacy hits.
  public static let piano = Vendor(
    id: "piano", name: "Piano Analytics (AT Internet)",
    aliases: ["at-internet", "atinternet", "piano-analytics"],
    paths: [.inApp, .sdk],
    endpoints: [
      // at-internet/piano-analytics-android `Configuration.kt` (`DEFAULT_PATH = "event"`), `SendTask.kt`;
      // piano-analytics-apple `SendStep.swift` sets no type (URLSession then sends a POST body as a
      // form); piano-analytics-js `text/plain`.
      Endpoint(
        "/event", "Piano Analytics SDKs: events",
        Shape(
          methods: ["POST"],
          contentTypes: ["application/json", "text/plain", "application/x-www-form-urlencoded"],
          encodings: ["JSON"],
          auth: "s (the site id) in the query"),
        .piano),
      // at-internet/atinternet-android-sdk `Configuration.java` (`pixelPath`), `Hit.java`.
      Endpoint(
        "/hit.xiti", "AT Internet SmartTag and mobile SDKs: legacy hits",
        Shape(
          methods: ["GET", "POST"], contentTypes: ["application/x-www-form-urlencoded"],
          encodings: ["query string"], auth: "s (the site id) in the query"),
        .atInternetHit),
    ],
    messages: MessageFields(
      messageID: [], properties: .parameters, trackMethod: "sendEvent",
      // at-internet/piano-analytics-android's `eventprocessors/InternalPropertiesEventProcessor.kt`,
      // `ContextPropertiesEventProcessor`, `PrivacyEventProcessor` and `UserEventProcessor` @
      // f3351cb99253fe82db771acfb54aacdbf2582380 add these (names from `model/PropertyName.kt`);
      // `listen` keeps them apart from the app's properties.
      sdkProperties: SDKProperties(
        names: [
          "app_crash", "app_crash_class", "app_crash_screen", "app_dsfs", "app_dsls", "app_dsu", "app_fs",
          "app_fsau",
          "app_fsd", "app_fsdau", "app_id", "app_sc", "app_scsu", "app_sessionid", "app_version",
          "browser_language",
          "browser_language_local", "connection_type", "device_manufacturer", "device_model",
          "device_screen_height",
          "device_screen_width", "device_timestamp_utc", "event_collection_platform",
          "event_collection_version",
          "os",
          "os_group", "os_version", "user_category", "user_id", "user_recognition", "visitor_privacy_consent",
          "visitor_privacy_mode",
          // piano-analytics-js @ 4aa564734ca53e4b0862ef1bb836f84027074b5f `src/core/steps/metadata.step.js`,
          // `src/business/pageview-id.js` and `user-agent.js` (the client hints, `ch_ua…`).
          "device_local_hour", "device_hour", "cookie_creation_date", "has_access", "device_display_width",
          "device_display_height", "previous_url", "page_title_html", "event_url_full", "pageview_id",
        ],
        prefixes: ["ch_ua"])),
    identity: [
      // piano-analytics-android `model/PropertyName.kt`, added by its event processors; the
      // visitor is the request's `idclient`.
      IdentityFields(
        form: "event", root: "the event's data, then the query", user: ["user_id"], device: ["idclient"],
        session: ["app_sessionid"], app: ["app_id"], platform: ["os_group", "event_collection_platform"],
        model: ["device_model"]),
      // atinternet-android-sdk `Hit.java` (`an`/`at` an identified visitor), `Core.java`; the
      // session `CoreFeatures.java`'s lifecycle metrics in `stc`.
      IdentityFields(
        form: "hit", root: "the hit's query fields (stc as its JSON)", user: ["an", "at"],
        device: ["idclient"], session: ["stc.lifecycle.sessionId"], app: ["apid"], platform: ["os"],
        model: ["model"]),
    ],
    proxyHosts: [
      ProxyHost("*.pa-cd.com", "Piano Analytics (collection domains)"),
      ProxyHost("*.xiti.com", "AT Internet hit.xiti, and Piano Analytics on logs.xiti.com"),
    ],
    callStyle: CallStyle(
      callType: "PianoCall", namespace: "Piano", defaultMethod: "sendEvent",
      calls: [CallTemplate("sendEvent", ".sendEvent(name: {name}, properties: {parameters})")]),
    limits: [.pianoCollect, .atInternetHit], rebuild: [.pianoEvent])
}

extension Vendor.Limit {
  /// Piano Analytics' collection endpoint: no bound is published (piano-analytics-android
  /// `SendTask.kt` sends at most 50 events a request); Tagscope holds one to 1 MB.
  public static let pianoCollect = Vendor.Limit(
    paths: ["/event"], requestBytes: 1024 * 1024, pastIt: "413",
    source: "Tagscope's own: none published (piano-analytics-android SendTask.kt sends 50 events a request)")

  /// AT Internet's hits: one event in a URL, which the SDK splits past 1,600 characters
  /// (atinternet-android-sdk `Builder.java`, `mh`); Tagscope holds a body to 64 KB.
  public static let atInternetHit = Vendor.Limit(
    paths: ["/hit.xiti"], requestBytes: 64 * 1024, pastIt: "413",
    source: "Tagscope's own: none published (atinternet-android-sdk splits hits over 1,600 characters)")
}

extension Vendor.Rebuild {
  /// A Piano Analytics SDK's `/event` request of the record's one event (piano-analytics-android
  /// `SendTask.kt`): its data the app's properties and the SDK's, each forced type written back
  /// as its key's prefix (`n:podcast_duration`), the site and visitor in the query. A record keeps
  /// no collection domain: the request goes to `logs.xiti.com`.
  public static let pianoEvent = Vendor.Rebuild(
    method: "sendEvent", url: "https://logs.xiti.com/event", mimeType: "application/json",
    body: .jsonEvent(
      array: "events", name: "name", data: "data", added: "sdk_properties", typed: "forced_types",
      query: ["s", "idclient"]),
    summary: "the record's event alone in an /event request, its site and visitor in the query")
}
