import AnalyticsHub
import NIOHTTP1
import TagscopeRecording

/// The set-up requests official SDKs make before (or beside) sending events, answered with a
/// minimal valid reply that keeps the SDK pointed at `listen`:
///
/// - Segment's settings, `GET /v1/projects/<writeKey>/settings` (analytics-swift, analytics-kotlin,
///   analytics.js): the `Segment.io` integration's `apiHost` is this server (the request's `Host`
///   and `/v1`), so the SDK keeps uploading here.
/// - Segment's own telemetry, `POST /v1/m` (analytics.js): taken and ignored.
/// - RudderStack's source configuration, `GET /sourceConfig` (its control plane): an enabled
///   source without destinations, so the SDK sends everything to its data plane (`listen`).
/// - PostHog's feature flags and remote configuration, `/decide` and `/flags`: no flags, no session
///   recording.
/// - mParticle's iOS and Android SDK configuration, `GET /v4/<key>/config` (`config2.mparticle.com`)
///   or `/config/v4/<key>/config` behind a custom base URL: `{"dt":"ac"}`, the smallest
///   configuration both take (iOS requires `dt` to be `ac`, mParticle/mparticle-apple-sdk
///   `MPNetworkCommunication.m`; Android reads each key only when present,
///   mParticle/mparticle-android-sdk `ConfigManager.java` `reloadCoreConfig`): no kits.
enum SDKSettings {
  /// The reply to a set-up request, or `nil` when the request is not one.
  static func reply(method: HTTPMethod, path: String, query: [(name: String, value: String)], host: String?)
    -> SDKReply?
  {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    switch (method, parts.count) {
    case (.GET, 4) where parts[0] == "v1" && parts[1] == "projects" && parts[3] == "settings":
      return segmentSettings(writeKey: String(parts[2]), host: host)
    case (.POST, 2) where parts[0] == "v1" && parts[1] == "m":
      return SDKReply(status: .ok, body: #"{"success":true}"#)
    case (.GET, 3) where parts[0] == "v4" && parts[2] == "config",
      (.GET, 4) where parts[0] == "config" && parts[1] == "v4" && parts[3] == "config":
      return SDKReply(status: .ok, body: #"{"dt":"ac"}"#)
    case (.GET, 1) where parts[0] == "sourceConfig":
      let writeKey = query.first { $0.name == "writeKey" }?.value ?? ""
      return rudderStackConfiguration(writeKey: writeKey)
    case (.GET, 1), (.POST, 1):
      guard parts[0] == "decide" || parts[0] == "flags" else { return nil }
      return SDKReply(
        status: .ok,
        body: #"{"featureFlags":{},"featureFlagPayloads":{},"flags":{},"errorsWhileComputingFlags":false,"#
          + #""sessionRecording":false,"supportedCompression":["gzip","gzip-js"]}"#)
    default:
      return nil
    }
  }

  /// Segment's settings for `writeKey`, uploads going to `host` (this server as the client reached it).
  static func segmentSettings(writeKey: String, host: String?) -> SDKReply {
    let apiHost =
      (host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:\(ListenConfiguration.defaultPort)") + "/v1"
    let integration: Properties = [
      "apiKey": .string(writeKey), "apiHost": .string(apiHost), "unbundledIntegrations": [],
    ]
    let settings: Properties = [
      "integrations": .object(["Segment.io": .object(integration)]),
      "plan": .object([
        "track": .object(["__default": .object(["enabled": true, "integrations": .object([:])])])
      ]),
      "edgeFunctions": .object([:]), "analyticsNextEnabled": true, "middlewareSettings": .object([:]),
      "enabledMiddleware": .object([:]), "metrics": .object(["sampleRate": 0]),
    ]
    return SDKReply(status: .ok, body: JSONText.string(settings))
  }

  /// RudderStack's source configuration: enabled, no device-mode destinations.
  static func rudderStackConfiguration(writeKey: String) -> SDKReply {
    let source: Properties = [
      "config": .object([:]), "id": "tagscope-listen", "name": "tagscope listen",
      "writeKey": .string(writeKey),
      "workspaceId": "tagscope", "enabled": true, "destinations": [],
    ]
    return SDKReply(status: .ok, body: JSONText.string(["isHosted": true, "source": .object(source)]))
  }
}
