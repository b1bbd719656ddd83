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
    /// An SDK's set-up request (settings, remote configuration), answered at once.
    case settings(SDKReply)
    /// A known path with a method it does not take.
    case methodNotAllowed
    /// No endpoint here.
    case notFound
    /// A query API route (`/tagscope/v1/…`) with its method.
    case api(APIRoute)
    /// A query API path that is unknown or not taken with this method: answered with this reply.
    case apiRefused(APIResponse)
  }

  static func route(
    method: HTTPMethod, path: String, query: [(name: String, value: String)] = [], host: String? = nil
  ) -> Route {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    if trimmed.hasPrefix(APIRoute.prefix) { return apiRoute(method: method, path: trimmed) }
    // Event endpoints first: the set-up requests are a few per SDK start, events are the traffic.
    guard let endpoint = endpoint(for: trimmed) else {
      if method == .OPTIONS {
        let known = [HTTPMethod.GET, .POST].contains {
          SDKSettings.reply(method: $0, path: trimmed, query: query, host: host) != nil
        }
        return known ? .preflight : .notFound
      }
      return SDKSettings.reply(method: method, path: trimmed, query: query, host: host).map(Route.settings)
        ?? .notFound
    }
    if method == .OPTIONS { return .preflight }
    if method == .POST { return .endpoint(endpoint) }
    if method == .GET, acceptsGET(endpoint) { return .endpoint(endpoint) }
    return .methodNotAllowed
  }

  private static func apiRoute(method: HTTPMethod, path: String) -> Route {
    guard let route = APIRoute(rawValue: String(path.dropFirst(APIRoute.prefix.count))) else {
      let routes = APIRoute.allCases.map(\.rawValue).joined(separator: ", ")
      return .apiRefused(.error(404, "no such route \(path) (\(APIRoute.prefix) has \(routes))"))
    }
    if method == .OPTIONS { return .preflight }
    guard method.rawValue == route.method else {
      var refused = APIResponse.error(405, "\(path) takes \(route.method), not \(method.rawValue)")
      refused.allow = route.method + ", OPTIONS"
      return .apiRefused(refused)
    }
    return .api(route)
  }

  private static func acceptsGET(_ endpoint: any SDKEndpoint) -> Bool {
    switch endpoint.provider {
    case "mixpanel", "snowplow", "posthog": return true
    default: return false
    }
  }

  private static func endpoint(for path: String) -> (any SDKEndpoint)? {
    switch path {
    // Segment's and RudderStack's long paths; the single-letter ones of analytics.js (`/v1/t`…) and
    // of analytics-swift/-kotlin (`/v1/b`); RudderStack's beacon batch.
    case "/v1/batch", "/v1/import", "/v1/b", "/beacon/v1/batch": return SegmentEndpoint(impliedType: nil)
    case "/v1/track", "/v1/t": return SegmentEndpoint(impliedType: "track")
    case "/v1/screen", "/v1/s": return SegmentEndpoint(impliedType: "screen")
    case "/v1/page", "/v1/p": return SegmentEndpoint(impliedType: "page")
    case "/v1/identify", "/v1/i": return SegmentEndpoint(impliedType: "identify")
    case "/v1/group", "/v1/g": return SegmentEndpoint(impliedType: "group")
    case "/v1/alias", "/v1/a": return SegmentEndpoint(impliedType: "alias")
    case "/2/httpapi": return AmplitudeEndpoint(isBatchAPI: false)
    case "/batch": return BatchEndpoint()
    case "/track": return MixpanelEndpoint(api: .track)
    case "/import": return MixpanelEndpoint(api: .importEvents)
    case "/engage": return MixpanelEndpoint(api: .engage)
    case "/groups": return MixpanelEndpoint(api: .groups)
    case "/capture", "/e", "/i/v0/e": return PostHogEndpoint()
    case "/com.snowplowanalytics.snowplow/tp2": return SnowplowEndpoint()
    case "/i": return SnowplowEndpoint()
    case "/v2/events": return MParticleEndpoint(isBulk: false)
    case "/v2/bulkevents": return MParticleEndpoint(isBulk: true)
    case "/mp/collect": return GA4Endpoint(isValidation: false)
    case "/debug/mp/collect": return GA4Endpoint(isValidation: true)
    case "/g/collect": return GA4GtagEndpoint()
    default: return MParticleEndpoint.web(path: path)
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
