extension Vendor {
  /// Braze (formerly Appboy): the in-app provider.
  public static let braze = Vendor(
    id: "braze", name: "Braze", aliases: ["appboy"], paths: [.inApp],
    callStyle: CallStyle(
      callType: "BrazeCall", namespace: "Braze", defaultMethod: "logCustomEvent",
      calls: [
        CallTemplate("logCustomEvent", ".logCustomEvent(name: {name}, properties: {parameters})"),
        CallTemplate("setCustomAttribute", ".setCustomAttribute(key: {name}, value: {value})"),
      ]))
}
