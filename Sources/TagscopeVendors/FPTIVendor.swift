extension Vendor {
  /// PayPal FPTI: the in-app provider; a planned call's `e` and `category` are its call's envelope.
  public static let fpti = Vendor(
    id: "fpti", name: "PayPal FPTI", aliases: ["paypal", "paypal-fpti"], paths: [.inApp],
    callStyle: CallStyle(
      callType: "FPTICall", namespace: "FPTI", defaultMethod: "event",
      calls: [
        CallTemplate(
          "event", ".event(name: {name}, category: {category}, type: {eventType}, properties: {parameters})")
      ],
      envelopeParameters: ["e", "category"]))
}
