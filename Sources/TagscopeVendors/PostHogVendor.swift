extension Vendor {
  /// PostHog: its SDKs' capture API (its batch path, `/batch`, is Amplitude's too).
  public static let posthog = Vendor(
    id: "posthog", name: "PostHog", paths: [.sdk],
    endpoints: [
      Endpoint("/capture", "PostHog: capture", .postHogAPI, .posthog),
      Endpoint("/e", "PostHog: capture (posthog-js)", .postHogAPI, .posthog),
      Endpoint("/i/v0/e", "PostHog: capture (v0)", .postHogAPI, .posthog),
    ],
    messages: MessageFields(
      messageID: [MessageIDPath("uuid")], properties: .at("properties"), trackMethod: "capture",
      // posthog-python's `Client` adds `$lib`, `$lib_version`, `$session_id`, `$groups`…;
      // posthog-js's `_calculate_event_properties` `token`, `distinct_id` and its `$…` fields.
      sdkProperties: SDKProperties(names: ["distinct_id", "token"], prefixes: ["$"])),
    identity: [
      // posthog-ios's PostHogContext and buildProperties, posthog-js's posthog-core: a `distinct_id`
      // equal to `$device_id` (or `$is_identified: false`) is an anonymous visitor.
      IdentityFields(
        form: "event", root: "the message; properties. its properties",
        user: ["distinct_id", "properties.distinct_id"], device: ["properties.$device_id"],
        anonymous: ["distinct_id", "properties.distinct_id"], previous: ["properties.$anon_distinct_id"],
        session: ["properties.$session_id"], app: ["properties.$app_name"],
        platform: ["properties.$os_name", "properties.$os"],
        model: ["properties.$device_model", "properties.$browser"])
    ],
    proxyHosts: [
      ProxyHost("us.i.posthog.com", "PostHog"),
      ProxyHost("eu.i.posthog.com", "PostHog (EU)"),
      ProxyHost("app.posthog.com", "PostHog (older SDKs)"),
    ],
    selfHosted: SelfHosting(option: "posthog-host", host: "A self-hosted PostHog host"),
    limits: [.postHogCapture], setupRequests: [.postHogDecide, .postHogFlags],
    rebuild: [.postHogBatch])
}

extension Vendor.Shape {
  /// PostHog's capture API: a batch, an event or an array of events, as JSON or a form field
  /// `data=` (JSON or base64 JSON).
  public static let postHogAPI = Vendor.Shape(
    methods: ["POST", "GET"],
    contentTypes: ["application/json", "text/plain", "application/x-www-form-urlencoded"],
    encodings: ["JSON", "form data= (JSON or base64 JSON)"], auth: "api_key (or token) in the body")
}

extension Vendor.Limit {
  /// PostHog's capture: 20 MB a request, 1 MB an event, answered `413`
  /// (posthog.com/docs/data/ingestion-warnings; PostHog/posthog `rust/capture/src/api.rs`
  /// `CaptureError::EventTooBig`).
  public static let postHogCapture = Vendor.Limit(
    paths: ["/batch", "/capture", "/e", "/i/v0/e"], requestBytes: 20 * 1024 * 1024,
    eventBytes: 1024 * 1024, pastIt: "413", source: "posthog.com/docs/data/ingestion-warnings")
}

extension Vendor.SetupRequest {
  /// The flags and remote configuration every PostHog SDK asks for: none, no session recording.
  static let postHogFlagsReply = Vendor.SetupRequest.Reply.fixed(
    #"{"featureFlags":{},"featureFlagPayloads":{},"flags":{},"errorsWhileComputingFlags":false,"#
      + #""sessionRecording":false,"supportedCompression":["gzip","gzip-js"]}"#)

  /// PostHog's feature flags and remote configuration (`/decide`, the older path).
  public static let postHogDecide = Vendor.SetupRequest(
    methods: ["GET", "POST"], path: "/decide",
    summary: "PostHog: feature flags, remote configuration; none", reply: postHogFlagsReply)

  /// PostHog's feature flags (`/flags`, the newer path).
  public static let postHogFlags = Vendor.SetupRequest(
    methods: ["GET", "POST"], path: "/flags",
    summary: "PostHog: feature flags; none",
    reply: postHogFlagsReply)
}

extension Vendor.Rebuild {
  /// posthog-ios's and posthog-android's upload: a `batch` with the API key at the host's `/batch`
  /// (PostHog/posthog-ios `PostHog/PostHogApi.swift` `batch`, posthog-android
  /// `PostHogBatchEvent.kt`: `api_key`, `batch`, `sent_at`).
  public static let postHogBatch = Vendor.Rebuild(
    url: "https://us.i.posthog.com/batch/", mimeType: "application/json",
    body: .jsonBatch(messages: "batch", credentials: ["api_key"]),
    summary: "its events in one batch, with its API key")
}
