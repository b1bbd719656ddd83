extension Vendor {
  /// Firebase (Google Analytics): the in-app provider, its SDK's own uploads (`app-measurement.com/a`,
  /// decoded by `listen` and the proxy) and its debug log read by `listen --log`.
  public static let firebase = Vendor(
    id: "firebase", name: "Firebase (Google Analytics)", aliases: ["google-analytics", "googleanalytics"],
    paths: [.inApp, .sdk, .log],
    endpoints: [
      Endpoint(
        "/a", "Firebase Analytics: the SDK's own uploads (app-measurement.com)",
        Shape(
          methods: ["POST"], contentTypes: ["application/x-www-form-urlencoded"],
          encodings: ["protobuf (gzip, with or without Content-Encoding; zlib; raw)"],
          auth: "none (gmp_app_id and app_instance_id in the body)"),
        .firebaseUpload)
    ],
    messages: MessageFields(messageID: [], properties: .unmapped),
    identity: [.firebaseUploadBundle],
    proxyHosts: [
      ProxyHost("app-measurement.com", "Firebase Analytics (Android, older iOS)"),
      ProxyHost("*.app-measurement.com", "Firebase Analytics (regional: region1…)"),
      ProxyHost("app-analytics-services.com", "Firebase Analytics (iOS)"),
      ProxyHost("*.app-analytics-services.com", "Firebase Analytics (iOS, regional)"),
      ProxyHost("app-analytics-services-att.com", "Firebase Analytics (iOS, tracking allowed)"),
      ProxyHost("*.app-analytics-services-att.com", "Firebase Analytics (iOS, regional, tracking allowed)"),
    ],
    callStyle: CallStyle(
      callType: "FirebaseCall", namespace: "Firebase", defaultMethod: "logEvent",
      calls: [
        CallTemplate("logEvent", ".logEvent({name}, {parameters})"),
        CallTemplate("setUserProperty", ".setUserProperty({value}.displayText, forName: {name})"),
      ]), limits: [.firebaseUpload], rebuild: [.firebaseUpload])
}

extension Vendor.Limit {
  /// Firebase Analytics' uploads: Google documents none; the Android SDK sends at most 64 KiB a
  /// batch (`measurement.upload.max_batch_size`), and Tagscope takes 1 MB of protobuf and 4,000
  /// events and user properties (the smallest real events, ~16 bytes, in 64 KiB).
  public static let firebaseUpload = Vendor.Limit(
    paths: ["/a"], requestBytes: 1024 * 1024, eventsPerRequest: 4_000,
    pastIt: "413 (too large), 400 (too many events)",
    source: "Tagscope's own: Google documents no bound (the Android SDK's measurement.upload flags)")
}

extension Vendor.IdentityFields {
  /// Who sent a bundle of a Firebase upload (`POST /a`, protobuf): its fields by their schema
  /// names (`app_instance_id`), `user_property.NAME` for a user property the SDK sets (`_id`, the
  /// app's `setUserID`; `_sid`, the session) and `param.NAME` for an event's own parameter (the
  /// session start's `_sid`, which comes before the bundle's).
  public static let firebaseUploadBundle = Vendor.IdentityFields(
    form: "bundle", root: "an upload's bundle", user: ["user_property._id"], device: ["app_instance_id"],
    session: ["param._sid", "user_property._sid"], app: ["app_id"], platform: ["platform"],
    model: ["device_model"])
}

extension Vendor.Rebuild {
  /// Firebase's uploads, gathered from the records of one upload: each record keeps its bundle's
  /// context (the fields Tagscope reads of it), its event's or user property's name, parameters
  /// (the SDK's own by their short names) and time, and its place in the upload; the protobuf is
  /// encoded with the schema's types (`FirebaseWire/Schema`) and gzip'd, `Content-Type:
  /// application/x-www-form-urlencoded` and `Content-Encoding: gzip` as the Android SDK sends it.
  /// A debug log line's record has no upload, and one whose upload held fields the schema does not
  /// know keeps only their names: neither is rebuilt.
  public static let firebaseUpload = Vendor.Rebuild(
    url: "https://app-measurement.com/a", mimeType: "application/x-www-form-urlencoded",
    body: .gatheredUpload(place: "place"),
    summary:
      "the upload of this record and the records after it, protobuf gzip'd (the bundle fields Tagscope does not read are not kept)"
  )
}
