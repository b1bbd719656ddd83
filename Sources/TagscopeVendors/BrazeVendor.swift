extension Vendor {
  /// Braze (formerly Appboy): the in-app provider and its SDKs' data endpoint.
  public static let braze = Vendor(
    id: "braze", name: "Braze", aliases: ["appboy"], paths: [.inApp, .sdk],
    endpoints: [
      // braze-inc/braze-roku-sdk `BrazeSDK.brs` (`logEvent`, `logAttribute`: `api/v3/data`); the
      // Web SDK posts to `/api/v3/data/`, which listen's router reads without its last slash.
      Endpoint(
        "/api/v3/data", "Braze SDKs: data (events, purchases, sessions, custom attributes)",
        Shape(
          methods: ["POST"], contentTypes: ["application/json"], encodings: ["JSON"],
          auth: "api_key in the body, or the X-Braze-Api-Key header"),
        .braze)
    ],
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
      ]), limits: [.brazeData])
}

extension Vendor.Limit {
  /// Braze's data endpoint: Braze publishes no bound on an SDK request (its SDKs send small ones:
  /// braze-roku-sdk `BrazeSDK.brs` one event or attribute a request); Tagscope holds one to 1 MB.
  public static let brazeData = Vendor.Limit(
    paths: ["/api/v3/data"], requestBytes: 1024 * 1024, pastIt: "413 with error",
    source: "Tagscope's own: none published (braze-roku-sdk BrazeSDK.brs sends one event a request)")
}
