extension Vendor {
  /// Piano Analytics (AT Internet): the in-app provider.
  public static let piano = Vendor(
    id: "piano", name: "Piano Analytics (AT Internet)",
    aliases: ["at-internet", "atinternet", "piano-analytics"],
    paths: [.inApp],
    callStyle: CallStyle(
      callType: "PianoCall", namespace: "Piano", defaultMethod: "sendEvent",
      calls: [CallTemplate("sendEvent", ".sendEvent(name: {name}, properties: {parameters})")]))
}
