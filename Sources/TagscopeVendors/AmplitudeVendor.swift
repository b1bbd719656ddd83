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
      ]))
}

extension Vendor.Shape {
  /// Amplitude's HTTP APIs: a JSON body with the key.
  public static let amplitudeAPI = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"], encodings: ["JSON"], auth: "api_key in the body")
}
