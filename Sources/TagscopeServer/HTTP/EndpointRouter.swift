import AnalyticsHub
import NIOHTTP1
import TagscopeRecording
import TagscopeTimeline

/// Finds the SDK endpoint for a request's method and path.
enum EndpointRouter {
  /// Where a request goes.
  enum Route: Sendable {
    /// An SDK endpoint.
    case endpoint(any SDKEndpoint)
    /// A CORS preflight (`OPTIONS`) for any known path.
    case preflight
    /// A known path with a method it does not take.
    case methodNotAllowed
    /// No endpoint here.
    case notFound
  }

  static func route(method: HTTPMethod, path: String) -> Route {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard let endpoint = endpoint(for: trimmed) else { return .notFound }
    if method == .OPTIONS { return .preflight }
    if method == .POST { return .endpoint(endpoint) }
    if method == .GET, acceptsGET(endpoint) { return .endpoint(endpoint) }
    return .methodNotAllowed
  }

  private static func acceptsGET(_ endpoint: any SDKEndpoint) -> Bool {
    switch endpoint.provider {
    case "mixpanel", "snowplow", "posthog": return true
    default: return false
    }
  }

  private static func endpoint(for path: String) -> (any SDKEndpoint)? {
    switch path {
    case "/v1/batch", "/v1/import": return SegmentEndpoint(impliedType: nil)
    case "/v1/track": return SegmentEndpoint(impliedType: "track")
    case "/v1/screen": return SegmentEndpoint(impliedType: "screen")
    case "/v1/page": return SegmentEndpoint(impliedType: "page")
    case "/v1/identify": return SegmentEndpoint(impliedType: "identify")
    case "/v1/group": return SegmentEndpoint(impliedType: "group")
    case "/v1/alias": return SegmentEndpoint(impliedType: "alias")
    case "/2/httpapi": return AmplitudeEndpoint(isBatchAPI: false)
    case "/batch": return BatchEndpoint()
    case "/track": return MixpanelEndpoint(api: .track)
    case "/import": return MixpanelEndpoint(api: .importEvents)
    case "/engage": return MixpanelEndpoint(api: .engage)
    case "/groups": return MixpanelEndpoint(api: .groups)
    case "/capture", "/e", "/i/v0/e": return PostHogEndpoint()
    case "/com.snowplowanalytics.snowplow/tp2": return SnowplowEndpoint()
    case "/i": return SnowplowEndpoint()
    case "/mp/collect": return GA4Endpoint(isValidation: false)
    case "/debug/mp/collect": return GA4Endpoint(isValidation: true)
    default: return nil
    }
  }
}

/// `/batch` is both Amplitude's Batch Event Upload API and PostHog's batch endpoint: an `events`
/// array means Amplitude, anything else PostHog.
struct BatchEndpoint: SDKEndpoint {
  var provider: String { "amplitude|posthog" }
  var bodyLimit: Int { 20 * 1024 * 1024 }

  func replyTooLarge() -> SDKReply { PostHogEndpoint().replyTooLarge() }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    if case .object(let object)? = try? JSONParser.parse(request.body), object["events"] != nil,
      object["batch"] == nil
    {
      return AmplitudeEndpoint(isBatchAPI: true).handle(request)
    }
    return PostHogEndpoint().handle(request)
  }
}
