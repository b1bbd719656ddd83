extension Vendor {
  /// PayPal FPTI: the in-app provider (a planned call's `e` and `category` are its call's
  /// envelope) and the FPTI events PayPal's mobile SDKs post to PayPal's tracking API.
  ///
  /// Sources: paypal/paypal-ios @ 600a97a5f69ea6f44db3cf2f8b631276fd0152d8
  /// (`Sources/CorePayments/AnalyticsEventData.swift`, `Networking/TrackingEventsAPI.swift`,
  /// `Networking/Enums/Environment.swift`: one event, `{"events":{"event_params":{…}}}`, to
  /// `https://api-m.paypal.com/v1/tracking/events`, always the live host); paypal/paypal-android @
  /// 1d89bb9187652e337de819452ed812071e4878b9 (`CorePayments/…/TrackingEventData.kt`,
  /// `TrackingEventsAPI.kt`: the same shape and host); braintree/braintree_ios @
  /// 181ff3e741a5739a0787e826af27830b83889942 (`Sources/BraintreeCore/Analytics/FPTIBatchData.swift`,
  /// `BTAnalyticsService.swift`: `{"events":[{"batch_params":{…},"event_params":[{…}]}]}` to
  /// `https://api.paypal.com/v1/tracking/batch/events`); braintree/braintree_android @
  /// 6c32508864f56da801474342d243262538776712 (`BraintreeCore/…/core/AnalyticsApi.kt`: the same
  /// batch to `api-m.paypal.com`). The SDKs' events carry no event type (`e`) and no category;
  /// they name no user and no device.
  public static let fpti = Vendor(
    id: "fpti", name: "PayPal FPTI", aliases: ["paypal", "paypal-fpti"], paths: [.inApp, .sdk],
    endpoints: [
      Endpoint(
        "/v1/tracking/events", "PayPal iOS and Android SDKs: one FPTI event (events.event_params)", .fpti,
        .fpti),
      Endpoint(
        "/v1/tracking/batch/events",
        "Braintree iOS and Android SDKs: FPTI batches (batch_params, event_params[])",
        .fpti, .fpti),
    ],
    // No message id: no FPTI event carries one of its own (paypal-ios `AnalyticsEventData`'s
    // `EventParameterKeys`, braintree_ios `FPTIBatchData.Event`'s `CodingKeys`: `correlation_id`
    // names the PayPal API call, which several events share, `paypal_context_id` the order), so
    // the delivery ledger matches FPTI calls by their name and properties.
    messages: MessageFields(messageID: [], properties: .parameters, trackMethod: "event"),
    identity: [
      // `AnalyticsEventData.swift` and `FPTIBatchData.swift` (`Metadata`): the app's bundle id,
      // the platform, the device's model; Braintree's batch a session id.
      IdentityFields(
        form: "event",
        root: "the event's params, then its batch's batch_params; PayPal's SDKs name no user and no device",
        user: [], device: [], session: ["session_id"], app: ["app_id"], platform: ["platform"],
        model: ["mobile_device_model"])
    ],
    proxyHosts: [
      ProxyHost("api-m.paypal.com", "PayPal FPTI (PayPal iOS/Android SDKs, Braintree Android)"),
      ProxyHost("api.paypal.com", "PayPal FPTI (Braintree iOS SDK)"),
    ],
    callStyle: CallStyle(
      callType: "FPTICall", namespace: "FPTI", defaultMethod: "event",
      calls: [
        CallTemplate(
          "event", ".event(name: {name}, category: {category}, type: {eventType}, properties: {parameters})")
      ],
      envelopeParameters: ["e", "category"]),
    wireNote:
      "The mobile SDKs' FPTI events are decoded on api-m.paypal.com and api.paypal.com, whose other paths (the payments API) are forwarded unrecorded (answered 404 with --no-forward); the web SDK's t.paypal.com beacons are tunnelled, not decoded.",
    limits: [.fptiTracking], rebuild: [.fptiEvent]
  )
}

extension Vendor.Shape {
  /// PayPal's tracking API: JSON, the merchant's client id as Basic auth (PayPal SDKs) or a
  /// Braintree tokenization key or authorization fingerprint in the batch.
  public static let fpti = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"],
    encodings: ["JSON: events.event_params, or events[] of batch_params and event_params[]"],
    auth: "Basic auth (client id), or tokenization_key / authorization_fingerprint in batch_params")
}

extension Vendor.Limit {
  /// PayPal's tracking API: no bound published (the PayPal SDKs send one event a request,
  /// Braintree's a session's queued events); Tagscope's own, 1 MB.
  public static let fptiTracking = Vendor.Limit(
    paths: ["/v1/tracking/events", "/v1/tracking/batch/events"], requestBytes: 1024 * 1024,
    pastIt: "413 with error",
    source: "Tagscope's own: none published (paypal-ios TrackingEventsAPI.swift sends one event a request)")
}

extension Vendor.Rebuild {
  /// paypal-ios' and paypal-android's `/v1/tracking/events` request of the record's one event:
  /// its name, tags, the SDK's tags and the merchant's client id in `event_params`. Only the
  /// records of PayPal's SDKs (which keep the `partner_client_id` they send) are rebuilt: a
  /// Braintree batch's records share its `batch_params` (session, app), which a request of one
  /// event would lose.
  public static let fptiEvent = Vendor.Rebuild(
    method: "event", marker: "partner_client_id", url: "https://api-m.paypal.com/v1/tracking/events",
    mimeType: "application/json",
    body: .flatEvent(
      path: ["events", "event_params"], name: "event_name", added: ["context"], fields: ["partner_client_id"],
      unrebuilt: ["batch_params"]),
    summary: "the record's event alone in a /v1/tracking/events request, as PayPal's mobile SDKs send one")
}
