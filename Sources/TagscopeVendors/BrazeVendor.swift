extension Vendor {
  /// Braze (formerly Appboy): the in-app provider, its SDKs' data endpoint and content requests.
  public static let braze = Vendor(
    id: "braze", name: "Braze", aliases: ["appboy"], paths: [.inApp, .sdk],
    endpoints: [
      // braze-inc/braze-roku-sdk `BrazeSDK.brs` (`logEvent`, `logAttribute`: `api/v3/data`); the
      // Web SDK posts to `/api/v3/data/`, which listen's router reads without its last slash.
      Endpoint(
        "/api/v3/data", "Braze SDKs: data (events, purchases, sessions, custom attributes)",
        .brazeJSON, .braze),
      // The SDKs asking for content, not sending events (``Vendor/Limit/brazeSync``): braze-roku-sdk
      // `requestFeatureFlags` (the request's own fields) and `requestTemplate` (`template`:
      // `trigger_id`, `trigger_event_type`, `data`, with `respond_with`); the Android SDK's content
      // card request adds `last_full_sync_at` and `last_card_updated_at` (decompiled
      // `com.braze.requests.e`), the Web SDK 3.5 `sdk_metadata` (a captured body). Recorded, not
      // judged as tags; answered as BrazeKit decodes them (a public mock of Braze's SDK server,
      // code index id 70604428724): `{"message":"success","feature_flags":[]}`, a content card
      // sync with `full_sync`, both watermarks and no `cards`; a template `{"message":"success"}`
      // (no `templated_message`: braze-roku-sdk `updateTriggerWithTemplate` then drops the
      // trigger; an assumption for the other SDKs).
      Endpoint(
        "/api/v3/content_cards/sync", "Braze SDKs: content card sync (recorded, not judged)", .brazeJSON,
        .braze),
      Endpoint(
        "/api/v3/feature_flags/sync", "Braze SDKs: feature flag refresh (recorded, not judged)", .brazeJSON,
        .braze),
      Endpoint(
        "/api/v3/template", "Braze SDKs: in-app message template (recorded, not judged)", .brazeJSON, .braze),
      // The Android SDK's other request paths (`com.braze.requests` endpoint enum, decompiled: code
      // index ids 59833840673, 61429145850; each request class's body: banners 61564023008,
      // push redelivery 58042309494, debugger 61694743297 and 61573152343, DUST 61680666059,
      // geofences 54585810645 and 21051263250, push delivery 61533628674); the Web SDK names
      // `banners/sync` too (code index id 66466378981). Two carry the SDK's events, decoded as on
      // `/api/v3/data` (push delivery `pd`, geofence transition `g`); the others ask for content or
      // carry the SDK's own diagnostics: recorded, not judged.
      Endpoint(
        "/api/v3/push/delivery_events", "Braze Android SDK: push deliveries (events[], as on data)",
        .brazeJSON, .braze),
      Endpoint(
        "/api/v3/geofence/report", "Braze Android SDK: a geofence transition (geofence_event)", .brazeJSON,
        .braze),
      Endpoint(
        "/api/v3/banners/sync", "Braze SDKs: banner placements refresh (recorded, not judged)", .brazeJSON,
        .braze),
      Endpoint(
        "/api/v3/geofence/request",
        "Braze Android SDK: geofence refresh at a location (recorded, not judged)",
        .brazeJSON, .braze),
      Endpoint(
        "/api/v3/push/redeliver", "Braze Android SDK: push max redelivery (recorded, not judged)", .brazeJSON,
        .braze),
      Endpoint(
        "/api/v3/debugger/init", "Braze SDKs: SDK Debugger session start (recorded, not judged)", .brazeJSON,
        .braze),
      Endpoint(
        "/api/v3/debugger/log", "Braze SDKs: SDK Debugger log lines (recorded, not judged)", .brazeJSON,
        .braze),
      Endpoint(
        "/api/v3/dust/config", "Braze SDKs: DUST configuration request (recorded, not judged)", .brazeJSON,
        .braze),
      // The Swift SDK's Live Activity push token tag (`liveActivities.launchActivity(pushTokenTag:
      // activity:)`, push-to-start): braze-inc/braze-docs
      // `_docs/_developer_guide/live_notifications/live_activities.md` @ d67d09ba (troubleshooting:
      // "an outgoing network request to the `/push_token_tag` endpoint of your Braze URL", the
      // activity id "under the `tag` field") is all that is public; the SDK is binary. Assumed:
      // its path under `/api/v3` as every other SDK request, and the request fields of the others;
      // the push token's own field is not named anywhere, so it is reported by its place.
      Endpoint(
        "/api/v3/push_token_tag", "Braze Swift SDK: Live Activity push token tag (recorded, not judged)",
        .brazeJSON, .braze),
    ],
    // No message id: a Braze event object carries none (braze-roku-sdk `createEventObject`:
    // `name`, `data`, `time`, `session_id`, `user_id`; the Android SDK's the same), so the
    // delivery ledger matches Braze calls by their name and properties.
    messages: MessageFields(messageID: [], properties: .parameters, trackMethod: "logCustomEvent"),
    identity: [
      // `createEventObject`, `createAttributeObject` and `generateRequiredRequestFields` of the
      // same file: an event or attribute object names its user and session, the request the
      // device (and the user again); a config request's `device` object names the model.
      IdentityFields(
        form: "event", root: "the event or attribute object, then the request", user: ["user_id"],
        device: ["device_id"], session: ["session_id"], model: ["device.model"])
    ],
    proxyHosts: [
      ProxyHost("*.braze.com", "Braze (sdk.iad-0N.braze.com, US clusters)"),
      ProxyHost("*.braze.eu", "Braze (sdk.fra-0N.braze.eu, EU clusters)"),
    ],
    callStyle: CallStyle(
      callType: "BrazeCall", namespace: "Braze", defaultMethod: "logCustomEvent",
      calls: [
        CallTemplate("logCustomEvent", ".logCustomEvent(name: {name}, properties: {parameters})"),
        CallTemplate("setCustomAttribute", ".setCustomAttribute(key: {name}, value: {value})"),
      ]), limits: [.brazeData, .brazeSync],
    rebuild: [.brazeContentCards, .brazeFeatureFlags, .brazeTemplate, .brazeData])
}

extension Vendor.Shape {
  /// Braze's SDK requests: one JSON object, its key in the body or a header.
  public static let brazeJSON = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"], encodings: ["JSON"],
    auth: "api_key in the body, or the X-Braze-Api-Key header")
}

extension Vendor.Limit {
  /// Braze's data endpoint: Braze publishes no bound on an SDK request (its SDKs send small ones:
  /// braze-roku-sdk `BrazeSDK.brs` one event or attribute a request); Tagscope holds one to 1 MB.
  public static let brazeData = Vendor.Limit(
    paths: ["/api/v3/data", "/api/v3/push/delivery_events", "/api/v3/geofence/report"],
    requestBytes: 1024 * 1024,
    pastIt: "413 with error",
    source: "Tagscope's own: none published (braze-roku-sdk BrazeSDK.brs sends one event a request)")

  /// Braze's content requests (content cards, feature flags, templates, banners, geofences) and
  /// the SDK's own (push redelivery, SDK Debugger, DUST): the request's own fields and what it
  /// asks for; held to the data endpoint's bound, none being published.
  public static let brazeSync = Vendor.Limit(
    paths: [
      "/api/v3/content_cards/sync", "/api/v3/feature_flags/sync", "/api/v3/template", "/api/v3/banners/sync",
      "/api/v3/geofence/request", "/api/v3/push/redeliver", "/api/v3/debugger/init", "/api/v3/debugger/log",
      "/api/v3/dust/config", "/api/v3/push_token_tag",
    ],
    requestBytes: 1024 * 1024, pastIt: "413 with error",
    source: "Tagscope's own: none published (braze-roku-sdk BrazeSDK.brs sends the request's own fields)")
}

extension Vendor.Rebuild {
  /// A Braze SDK's `/api/v3/data` request (braze-inc/braze-roku-sdk `BrazeSDK.brs` @ 0d970016:
  /// `generateRequiredRequestFields`, `createEventObject`, `createAttributeObject`), gathered from
  /// the records of one request: its own fields (`api_key`, `device_id`, `device`…) as its first
  /// record keeps them, its events and attributes. A record keeps no cluster: the request goes to
  /// `sdk.iad-01.braze.com`.
  public static let brazeData = Vendor.Rebuild(
    url: "https://sdk.iad-01.braze.com/api/v3/data", mimeType: "application/json",
    body: .gatheredRequest(
      request: "request", events: "events", attributes: "attributes", custom: "custom", credential: "api_key",
      header: "X-Braze-Api-Key", eventTime: ["time"]),
    summary:
      "the request of this record and the records after it, at sdk.iad-01.braze.com (no cluster is kept)")

  /// A Braze SDK's content card sync (the request's own fields and its watermarks).
  public static let brazeContentCards = brazeSync(
    "requestContentCardsRefresh", "/api/v3/content_cards/sync", "content card sync")
  /// A Braze SDK's feature flag refresh (braze-roku-sdk `requestFeatureFlags`).
  public static let brazeFeatureFlags = brazeSync(
    "refreshFeatureFlags", "/api/v3/feature_flags/sync", "feature flag refresh")
  /// A Braze SDK's in-app message template request (braze-roku-sdk `requestTemplate`).
  public static let brazeTemplate = brazeSync("requestTemplate", "/api/v3/template", "template request")

  private static func brazeSync(_ method: String, _ path: String, _ what: String) -> Vendor.Rebuild {
    Vendor.Rebuild(
      method: method, url: "https://sdk.iad-01.braze.com" + path, mimeType: "application/json",
      body: .keptRequest(request: "request"),
      summary: "the \(what) as its record keeps it, at sdk.iad-01.braze.com (no cluster is kept)")
  }
}
