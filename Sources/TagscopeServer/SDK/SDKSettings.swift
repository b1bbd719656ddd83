import AnalyticsHub
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors

/// The set-up requests official SDKs make before (or beside) sending events (the registry's
/// `Vendors.setupRequests`: Segment's settings and telemetry, RudderStack's source configuration,
/// PostHog's flags, mParticle's configuration), answered with a minimal valid reply that keeps the
/// SDK pointed at `listen`.
enum SDKSettings {
  /// The reply to a set-up request, or `nil` when the request is not one.
  static func reply(method: HTTPMethod, path: String, query: [(name: String, value: String)], host: String?)
    -> SDKReply?
  {
    for request in Vendors.setupRequests where request.methods.contains(method.rawValue) {
      guard let key = request.key(inPath: path) else { continue }
      switch request.reply {
      case .fixed(let body):
        return SDKReply(status: .ok, body: body)
      case .segmentSettings:
        return segmentSettings(writeKey: key, host: host)
      case .rudderStackSourceConfig:
        return rudderStackConfiguration(writeKey: query.first { $0.name == "writeKey" }?.value ?? "")
      }
    }
    return nil
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
