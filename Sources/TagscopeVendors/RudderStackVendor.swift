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
    ], limits: [.rudderStackBatch], setupRequests: [.rudderStackSourceConfig],
    rebuild: [.rudderStackBatch])
}

extension Vendor.Limit {
  /// RudderStack's batches, on Segment's paths and its beacon's: 4 MB and 32 KB a call, no bound
  /// on the events (rudderstack.com/docs/api/http-api/; rudder-sdk-python `consumer.py`
  /// `BATCH_SIZE_LIMIT = 4 << 10 << 10`). A batch whose every message is a RudderStack SDK's gets
  /// these, any other Segment's.
  public static let rudderStackBatch = Vendor.Limit(
    paths: ["/v1/batch", "/beacon/v1/batch"], requestBytes: 4 * 1024 * 1024,
    eventBytes: 32 * 1024, pastIt: "400 request_too_large",
    source: "rudderstack.com/docs/api/http-api/ (32 KB a call, 4 MB a batch)")
}

extension Vendor.SetupRequest {
  /// The SDKs' source configuration, from RudderStack's control plane.
  public static let rudderStackSourceConfig = Vendor.SetupRequest(
    methods: ["GET"], path: "/sourceConfig",
    summary: "RudderStack: source configuration; no device-mode destinations", reply: .rudderStackSourceConfig
  )
}

extension Vendor.Rebuild {
  /// rudder-sdk-ios's upload: its messages in one batch, with its write key, at the hosted data
  /// plane (rudderlabs/rudder-sdk-ios `Sources/Classes/Common/Constants/RSConstants.swift`
  /// `DEFAULT_DATA_PLANE_URL`, `RSServiceManager.swift` `v1/batch`); a self-hosted data plane's
  /// host is not in the recording.
  public static let rudderStackBatch = Vendor.Rebuild(
    url: "https://hosted.rudderlabs.com/v1/batch", mimeType: "application/json",
    body: .jsonBatch(messages: "batch", credentials: ["writeKey"]),
    summary: "its messages in one batch, with its write key, at the hosted data plane")
}
