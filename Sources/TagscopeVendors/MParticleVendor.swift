extension Vendor {
  /// mParticle: its server Events API, its web, iOS and Android SDKs (their key in the path) and
  /// their IDSync calls, and its data plans.
  public static let mparticle = Vendor(
    id: "mparticle", name: "mParticle", paths: [.sdk],
    endpoints: [
      Endpoint("/v2/events", "mParticle: Events API", .mparticleEventsAPI, .mparticleEvents(bulk: false)),
      Endpoint(
        "/v2/bulkevents", "mParticle: bulk Events API", .mparticleEventsAPI, .mparticleEvents(bulk: true)),
      Endpoint("/v3/JS/KEY/events", "mParticle: web SDK", .mparticleWebSDK, .mparticleWeb),
      Endpoint("/webevents/v3/JS/KEY/events", "mParticle: web SDK", .mparticleWebSDK, .mparticleWeb),
      Endpoint("/v2/KEY/events", "mParticle: iOS, Android SDKs", .mparticleNativeSDK, .mparticleNative),
      Endpoint(
        "/nativeevents/v2/KEY/events", "mParticle: iOS, Android SDKs", .mparticleNativeSDK, .mparticleNative),
      Endpoint("/v1/identify", identitySummary, .mparticleIdentity, .mparticleIdentity),
      Endpoint("/v1/login", identitySummary, .mparticleIdentity, .mparticleIdentity),
      Endpoint("/v1/logout", identitySummary, .mparticleIdentity, .mparticleIdentity),
      Endpoint("/v1/MPID/modify", identitySummary, .mparticleIdentity, .mparticleIdentity),
      Endpoint("/identity/v1/identify", identitySummary, .mparticleIdentity, .mparticleIdentity),
      Endpoint("/identity/v1/login", identitySummary, .mparticleIdentity, .mparticleIdentity),
      Endpoint("/identity/v1/logout", identitySummary, .mparticleIdentity, .mparticleIdentity),
      Endpoint("/identity/v1/MPID/modify", identitySummary, .mparticleIdentity, .mparticleIdentity),
    ],
    messages: MessageFields(
      messageID: [MessageIDPath("data.source_message_id"), MessageIDPath("id", rawMarker: "dt")],
      properties: .at("data.custom_attributes")),
    identity: [
      // mparticle-python-sdk's models (batch, device_information, application_information,
      // user_identities, event_data); `mpid`, the profile mParticle keeps, is the anonymous id.
      IdentityFields(
        form: "events api", root: "the batch; event. the event's data",
        user: ["user_identities.customerid", "user_identities.email"],
        device: [
          "mp_deviceid", "device_info.ios_idfv", "device_info.android_uuid", "device_info.ios_advertising_id",
          "device_info.android_advertising_id",
        ],
        anonymous: ["mpid"], session: ["event.session_uuid", "event.session_id"],
        app: ["application_info.application_name", "application_info.package"],
        platform: ["device_info.platform"], model: ["device_info.device_model"]),
      // IDSync: the mpid answered is derived from the device.
      IdentityFields(
        form: "idsync", root: "the request; identities. its known identities with its changes applied",
        user: ["identities.customerid", "identities.email"],
        device: [
          "known_identities.device_application_stamp", "known_identities.android_uuid",
          "known_identities.ios_idfv",
        ],
        platform: ["client_sdk.platform"]),
    ],
    proxyHosts: [
      ProxyHost("s2s.mparticle.com", "mParticle (Events API)"),
      ProxyHost("s2s.us2.mparticle.com", "mParticle (Events API, US2)"),
      ProxyHost("s2s.eu1.mparticle.com", "mParticle (Events API, EU)"),
      ProxyHost("jssdks.mparticle.com", "mParticle (web SDK)"),
      ProxyHost("nativesdks.mparticle.com", "mParticle (Android SDK)"),
      ProxyHost("nativesdks.us1.mparticle.com", "mParticle (iOS SDK, US1)"),
      ProxyHost("tracking-nativesdks.us1.mparticle.com", "mParticle (iOS SDK, US1, tracking)"),
      ProxyHost("nativesdks.us2.mparticle.com", "mParticle (iOS SDK, US2)"),
      ProxyHost("tracking-nativesdks.us2.mparticle.com", "mParticle (iOS SDK, US2, tracking)"),
      ProxyHost("nativesdks.eu1.mparticle.com", "mParticle (iOS SDK, EU1)"),
      ProxyHost("tracking-nativesdks.eu1.mparticle.com", "mParticle (iOS SDK, EU1, tracking)"),
      ProxyHost("nativesdks.au1.mparticle.com", "mParticle (iOS SDK, AU1)"),
      ProxyHost("tracking-nativesdks.au1.mparticle.com", "mParticle (iOS SDK, AU1, tracking)"),
      ProxyHost("identity.mparticle.com", "mParticle (Android SDK, IDSync)"),
      ProxyHost("identity.us1.mparticle.com", "mParticle (iOS SDK, IDSync, US1)"),
      ProxyHost("tracking-identity.us1.mparticle.com", "mParticle (iOS SDK, IDSync, US1, tracking)"),
      ProxyHost("identity.us2.mparticle.com", "mParticle (iOS SDK, IDSync, US2)"),
      ProxyHost("tracking-identity.us2.mparticle.com", "mParticle (iOS SDK, IDSync, US2, tracking)"),
      ProxyHost("identity.eu1.mparticle.com", "mParticle (iOS SDK, IDSync, EU1)"),
      ProxyHost("tracking-identity.eu1.mparticle.com", "mParticle (iOS SDK, IDSync, EU1, tracking)"),
      ProxyHost("identity.au1.mparticle.com", "mParticle (iOS SDK, IDSync, AU1)"),
      ProxyHost("tracking-identity.au1.mparticle.com", "mParticle (iOS SDK, IDSync, AU1, tracking)"),
    ],
    importFormats: [
      ImportFormatFacts(
        name: "mparticle", displayName: "mParticle", summary: "mParticle data plans",
        evidenceKeys: ["data_plan_versions", "version_document", "data_points[]"])
    ], limits: [.mparticleEvents, .mparticleNative],
    setupRequests: [.mparticleConfig, .mparticleConfigBehindBaseURL], rebuild: [.mparticleBatch])

  private static let identitySummary = "mParticle: iOS, Android SDKs' IDSync (answered with an mpid)"
}

extension Vendor.Shape {
  /// mParticle's Events API: a JSON batch (or an array of batches), basic auth.
  public static let mparticleEventsAPI = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json", "text/plain"], encodings: ["JSON"],
    auth: "basic auth (API key, secret)")
  /// mParticle's web SDK: the Events API's batch, `text/plain` from `sendBeacon`.
  public static let mparticleWebSDK = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json", "text/plain"], encodings: ["JSON"],
    auth: "the API key in the path")
  /// mParticle's iOS and Android SDKs: a gzip'd JSON batch of short keys, signed.
  public static let mparticleNativeSDK = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"], encodings: ["JSON (short keys), gzip"],
    auth: "the API key in the path; x-mp-signature (recorded, not checked)")
  /// mParticle's IDSync: a JSON request, answered with an mpid.
  public static let mparticleIdentity = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"], encodings: ["JSON"],
    auth: "x-mp-key header (recorded as its key)")
}

extension Vendor.Limit {
  /// mParticle's Events API: 100 batches a bulk request (its Events API reference); the 3 MB
  /// request bound is Tagscope's, mParticle's own is not in the sources read (per-event limits
  /// are truncated server-side, not refused: docs.mparticle.com/guides/default-service-limits/).
  public static let mparticleEvents = Vendor.Limit(
    paths: ["/v2/events", "/v2/bulkevents"], requestBytes: 3 * 1024 * 1024,
    eventsPerRequest: 100, pastIt: "413 REQUEST_TOO_LARGE; 400 past 100 batches",
    source: "docs.mparticle.com/developers/apis/http/ (100 batches); 3 MB is Tagscope's bound")

  /// mParticle's web and mobile SDK paths and IDSync: Tagscope's 3 MB bound (the SDKs split their
  /// own 128 KB batches).
  public static let mparticleNative = Vendor.Limit(
    paths: [
      "/v3/JS/KEY/events", "/webevents/v3/JS/KEY/events", "/v2/KEY/events", "/nativeevents/v2/KEY/events",
      "/v1/identify", "/v1/login", "/v1/logout", "/v1/MPID/modify", "/identity/v1/identify",
      "/identity/v1/login",
      "/identity/v1/logout", "/identity/v1/MPID/modify",
    ],
    requestBytes: 3 * 1024 * 1024, pastIt: "413 REQUEST_TOO_LARGE",
    source: "Tagscope's bound: mParticle's SDKs send batches of at most 128 KB")
}

extension Vendor.SetupRequest {
  /// The smallest configuration mParticle's iOS and Android SDKs take: no kits (iOS requires `dt`
  /// to be `ac`, mParticle/mparticle-apple-sdk `MPNetworkCommunication.m`; Android reads each key
  /// only when present, mParticle/mparticle-android-sdk `ConfigManager.java` `reloadCoreConfig`).
  static let mparticleConfigReply = Vendor.SetupRequest.Reply.fixed(#"{"dt":"ac"}"#)

  /// mParticle's iOS and Android SDK configuration (`config2.mparticle.com`).
  public static let mparticleConfig = Vendor.SetupRequest(
    methods: ["GET"], path: "/v4/KEY/config",
    summary: "mParticle iOS, Android SDKs: configuration; no kits", reply: mparticleConfigReply)

  /// The same behind a custom base URL.
  public static let mparticleConfigBehindBaseURL = Vendor.SetupRequest(
    methods: ["GET"], path: "/config/v4/KEY/config",
    summary: "mParticle iOS, Android SDKs: configuration behind a custom base URL",
    reply: mparticleConfigReply)
}

extension Vendor.Rebuild {
  /// mParticle's batches, gathered from the records of one request: the first record of each
  /// batch keeps its own fields (`device_info`, `application_info`, `user_identities`, `mpid`…
  /// of mparticle-python-sdk's `Batch`; the mobile SDKs' `ai`, `di`, `ui`, `mpid`, `das`…), each
  /// record its event (a mobile SDK's message whole in its `raw`), the request's first its path.
  /// The Events API's requests carry the API key as Basic auth user and an empty secret: a
  /// record never keeps the secret. The mobile SDKs' `x-mp-signature` (an HMAC of the secret)
  /// and their batch's transport fields (`id`, `ct`, `sdk`…) are not kept either.
  public static let mparticleBatch = Vendor.Rebuild(
    url: "https://s2s.mparticle.com/v2/events", mimeType: "application/json",
    body: .gatheredBatches(
      batch: "batch", path: "path", events: "events", messages: "msgs", bulkSuffix: "/bulkevents",
      credential: "api_key",
      hosts: [
        Vendor.PathHost("/JS/KEY/", at: "https://jssdks.mparticle.com"),
        Vendor.PathHost("/KEY/", at: "https://nativesdks.mparticle.com"),
      ], eventTime: ["data", "timestamp_unixtime_ms"]),
    summary:
      "the batches of this record's request; Basic auth carries the API key with an empty secret (no secret is kept), no x-mp-signature"
  )
}
