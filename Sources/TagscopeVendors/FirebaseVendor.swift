extension Vendor {
  /// Firebase (Google Analytics): the in-app provider, and its debug log read by `listen --log`.
  public static let firebase = Vendor(
    id: "firebase", name: "Firebase (Google Analytics)", aliases: ["google-analytics", "googleanalytics"],
    paths: [.inApp, .log],
    callStyle: CallStyle(
      callType: "FirebaseCall", namespace: "Firebase", defaultMethod: "logEvent",
      calls: [
        CallTemplate("logEvent", ".logEvent({name}, {parameters})"),
        CallTemplate("setUserProperty", ".setUserProperty({value}.displayText, forName: {name})"),
      ]))
}
