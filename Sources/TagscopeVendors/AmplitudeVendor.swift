extension Vendor {
  /// Amplitude: the in-app provider and its SDKs' HTTP V2 and Batch APIs.
  public static let amplitude = Vendor(
    id: "amplitude", name: "Amplitude", paths: [.inApp, .sdk],
    endpoints: [
      Endpoint("/2/httpapi", "Amplitude: HTTP V2 API", .amplitudeAPI, .amplitude),
      Endpoint(
        "/batch", "Amplitude Batch API (an events array), else PostHog batch",
        Shape(
          methods: ["POST"],
          contentTypes: ["application/json", "text/plain", "application/x-www-form-urlencoded"],
          encodings: ["JSON", "form data= (JSON or base64 JSON)"], auth: "api_key in the body"),
        .amplitudeOrPostHogBatch),
    ],
    messages: MessageFields(
      messageID: [MessageIDPath("insert_id")], properties: .at("event_properties"),
      methodProperties: ["identify": "user_properties.$set", "groupIdentify": "group_properties.$set"]),
    identity: [
      // Amplitude-Swift's BaseEvent coding keys, filled by its ContextPlugin; it sends no app name.
      IdentityFields(
        form: "event", root: "the event", user: ["user_id"], device: ["device_id"], session: ["session_id"],
        platform: ["os_name", "platform"], model: ["device_model"])
    ],
    proxyHosts: [
      ProxyHost("api2.amplitude.com", "Amplitude"),
      ProxyHost("api.amplitude.com", "Amplitude (older SDKs)"),
      ProxyHost("api.eu.amplitude.com", "Amplitude (EU)"),
    ],
    callStyle: CallStyle(
      callType: "AmplitudeCall", namespace: "Amplitude", defaultMethod: "track",
      calls: [
        CallTemplate("track", ".track(eventType: {name}, eventProperties: {parameters})"),
        CallTemplate("identify", ".identify(userProperties: {parameters})", name: .any),
      ]), limits: [.amplitudeHTTP, .amplitudeBatch],
    rebuild: [.amplitudeHTTP])
}

extension Vendor.Shape {
  /// Amplitude's HTTP APIs: a JSON body with the key.
  public static let amplitudeAPI = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"], encodings: ["JSON"], auth: "api_key in the body")
}

extension Vendor.Limit {
  /// Amplitude's HTTP V2 API: 1 MB and 2,000 events a request; no per-event bound is documented
  /// (amplitude.com/docs/apis/analytics/http-v2 › upload limits).
  public static let amplitudeHTTP = Vendor.Limit(
    paths: ["/2/httpapi"], requestBytes: 1024 * 1024, eventsPerRequest: 2_000,
    pastIt: "413 with code and error", source: "amplitude.com/docs/apis/analytics/http-v2 (upload limits)")

  /// Amplitude's Batch API: 20 MB and 2,000 events a request
  /// (amplitude.com/docs/apis/analytics/batch-event-upload, …/http-api-batching-retries).
  public static let amplitudeBatch = Vendor.Limit(
    paths: ["/batch"], requestBytes: 20 * 1024 * 1024, eventsPerRequest: 2_000,
    pastIt: "413 with code and error", source: "amplitude.com/docs/apis/analytics/batch-event-upload")
}

extension Vendor.Rebuild {
  /// Amplitude-Swift's upload: its events and API key in one HTTP V2 request
  /// (amplitude/Amplitude-Swift `Sources/Amplitude/Constants.swift` `DEFAULT_API_HOST`,
  /// `Utilities/HttpClient.swift` `getRequestData`: `{"api_key":…,"events":[…]}`).
  public static let amplitudeHTTP = Vendor.Rebuild(
    url: "https://api2.amplitude.com/2/httpapi", mimeType: "application/json",
    body: .jsonBatch(messages: "events", credentials: ["api_key"]),
    summary: "its events in one HTTP V2 request, with its API key")
}
