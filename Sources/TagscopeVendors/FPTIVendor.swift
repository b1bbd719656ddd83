extension Vendor {
  /// PayPal FPTI: the in-app provider; a planned call's `e` and `category` are its call's envelope.
  /// Its wire format is public (paypal/paypal-android `AnalyticsEventData.kt`: JSON `event_params`
  /// posted to `/v1/tracking/events`; web beacons to `t.paypal.com/ts`) but not decoded yet.
  public static let fpti = Vendor(
    id: "fpti", name: "PayPal FPTI", aliases: ["paypal", "paypal-fpti"], paths: [.inApp],
    callStyle: CallStyle(
      callType: "FPTICall", namespace: "FPTI", defaultMethod: "event",
      calls: [
        CallTemplate(
          "event", ".event(name: {name}, category: {category}, type: {eventType}, properties: {parameters})")
      ],
      envelopeParameters: ["e", "category"]),
    wireNote:
      "Not decoded yet, though its format is public (JSON to api.paypal.com/v1/tracking/events, t.paypal.com/ts beacons): tunnelled; watch FPTI through the in-app hub."
  )
}
