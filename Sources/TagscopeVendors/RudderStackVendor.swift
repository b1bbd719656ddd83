extension Vendor {
  /// RudderStack: Segment's HTTP API (served by Segment's paths, told apart by its messages) and
  /// its beacon batch.
  public static let rudderstack = Vendor(
    id: "rudderstack", name: "RudderStack", paths: [.sdk],
    endpoints: [
      Endpoint("/beacon/v1/batch", "RudderStack: beacon batch", .segmentAPI, .segment(impliedType: nil))
    ],
    messages: MessageFields(messageID: [MessageIDPath("messageId")], properties: .at("properties")),
    identity: [.segmentMessage],
    proxyHosts: [
      ProxyHost("*.dataplane.rudderstack.com", "RudderStack"),
      ProxyHost("hosted.rudderlabs.com", "RudderStack"),
    ],
    selfHosted: SelfHosting(option: "rudderstack-host", host: "A RudderStack data-plane host"),
    importFormats: [
      ImportFormatFacts(
        name: "rudderstack", displayName: "RudderStack",
        summary: "RudderStack tracking plans as rudder-cli writes them",
        evidenceKeys: ["version rudder/…", "kind", "rules.events[].rules"])
    ])
}
