import AnalyticsHub
import AnalyticsProviders
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

    /// Whether it is a query API route the API answers.
    var isAPI: Bool {
      if case .api = self { return true }
      return false
    }
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
    case Vendors.mixpanel.rawValue, Vendors.snowplow.rawValue, Vendors.posthog.rawValue: return true
    default: return false
    }
  }

  private static func endpoint(for path: String) -> (any SDKEndpoint)? {
    byPath[path] ?? MParticleEndpoint.web(path: path) ?? MParticleNativeEndpoint.matching(path: path)
      ?? MParticleIdentityEndpoint.matching(path: path)
  }

  private static let byPath = Dictionary(uniqueKeysWithValues: paths.map { ($0.path, $0.endpoint) })

  /// The SDK event endpoints by path (besides mParticle's web and mobile SDKs, whose paths hold
  /// their key or mpid: ``MParticleEndpoint/web(path:)``, ``MParticleNativeEndpoint/matching(path:)``,
  /// ``MParticleIdentityEndpoint/matching(path:)``): what `route` serves and `tagscope help listen` lists.
  static let paths: [EndpointPath] = [
    // Segment's and RudderStack's long paths; the single-letter ones of analytics.js (`/v1/t`…) and
    // of analytics-swift/-kotlin (`/v1/b`); RudderStack's beacon batch.
    EndpointPath("/v1/batch", "Segment, RudderStack: batch", SegmentEndpoint(impliedType: nil)),
    EndpointPath("/v1/import", "Segment: import", SegmentEndpoint(impliedType: nil)),
    EndpointPath(
      "/v1/b", "Segment (analytics-swift, -kotlin, analytics.js): batch", SegmentEndpoint(impliedType: nil)),
    EndpointPath("/beacon/v1/batch", "RudderStack: beacon batch", SegmentEndpoint(impliedType: nil)),
    EndpointPath("/v1/track", "Segment, RudderStack: track", SegmentEndpoint(impliedType: "track")),
    EndpointPath("/v1/t", "Segment analytics.js: track", SegmentEndpoint(impliedType: "track")),
    EndpointPath("/v1/screen", "Segment, RudderStack: screen", SegmentEndpoint(impliedType: "screen")),
    EndpointPath("/v1/s", "Segment analytics.js: screen", SegmentEndpoint(impliedType: "screen")),
    EndpointPath("/v1/page", "Segment, RudderStack: page", SegmentEndpoint(impliedType: "page")),
    EndpointPath("/v1/p", "Segment analytics.js: page", SegmentEndpoint(impliedType: "page")),
    EndpointPath(
      "/v1/identify", "Segment, RudderStack: identify; mParticle iOS, Android SDKs: IDSync identify",
      SegmentOrMParticleIdentify()),
    EndpointPath("/v1/i", "Segment analytics.js: identify", SegmentEndpoint(impliedType: "identify")),
    EndpointPath("/v1/group", "Segment, RudderStack: group", SegmentEndpoint(impliedType: "group")),
    EndpointPath("/v1/g", "Segment analytics.js: group", SegmentEndpoint(impliedType: "group")),
    EndpointPath("/v1/alias", "Segment, RudderStack: alias", SegmentEndpoint(impliedType: "alias")),
    EndpointPath("/v1/a", "Segment analytics.js: alias", SegmentEndpoint(impliedType: "alias")),
    EndpointPath("/2/httpapi", "Amplitude: HTTP V2 API", AmplitudeEndpoint(isBatchAPI: false)),
    EndpointPath("/batch", "Amplitude Batch API (an events array), else PostHog batch", BatchEndpoint()),
    EndpointPath("/track", "Mixpanel: track (POST, GET)", MixpanelEndpoint(api: .track)),
    EndpointPath("/import", "Mixpanel: import", MixpanelEndpoint(api: .importEvents)),
    EndpointPath("/engage", "Mixpanel: people (engage)", MixpanelEndpoint(api: .engage)),
    EndpointPath("/groups", "Mixpanel: groups", MixpanelEndpoint(api: .groups)),
    EndpointPath("/capture", "PostHog: capture", PostHogEndpoint()),
    EndpointPath("/e", "PostHog: capture (posthog-js)", PostHogEndpoint()),
    EndpointPath("/i/v0/e", "PostHog: capture (v0)", PostHogEndpoint()),
    EndpointPath(
      "/com.snowplowanalytics.snowplow/tp2", "Snowplow: tracker protocol 2 (POST, GET)", SnowplowEndpoint()),
    EndpointPath("/i", "Snowplow: GET pixel", SnowplowEndpoint()),
    EndpointPath("/v2/events", "mParticle: Events API", MParticleEndpoint(isBulk: false)),
    EndpointPath("/v2/bulkevents", "mParticle: bulk Events API", MParticleEndpoint(isBulk: true)),
    EndpointPath("/mp/collect", "GA4: Measurement Protocol", GA4Endpoint(isValidation: false)),
    EndpointPath(
      "/debug/mp/collect", "GA4: Measurement Protocol validation", GA4Endpoint(isValidation: true)),
    EndpointPath("/g/collect", "GA4: gtag.js", GA4GtagEndpoint()),
  ]
}

/// One SDK event path `listen` serves: the path, which SDK sends it, and its endpoint.
struct EndpointPath: Sendable {
  let path: String
  let summary: String
  let endpoint: any SDKEndpoint

  init(_ path: String, _ summary: String, _ endpoint: any SDKEndpoint) {
    self.path = path
    self.summary = summary
    self.endpoint = endpoint
  }
}

/// `/batch` is both Amplitude's Batch Event Upload API and PostHog's batch endpoint: an `events`
/// array means Amplitude, anything else PostHog.
struct BatchEndpoint: SDKEndpoint {
  var provider: String { "amplitude|posthog" }
  var bodyLimit: Int { 20 * 1024 * 1024 }

  func replyTooLarge() -> SDKReply { PostHogEndpoint().replyTooLarge() }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    Self.isAmplitude(request.body)
      ? AmplitudeEndpoint(isBatchAPI: true).handle(request) : PostHogEndpoint().handle(request)
  }

  /// A PostHog batch is decoded a slice at a time as it is delivered (``EventBatch``), as on
  /// PostHog's other paths.
  func handleLazily(_ request: ReceivedRequest) -> SDKReply {
    Self.isAmplitude(request.body)
      ? AmplitudeEndpoint(isBatchAPI: true).handle(request) : PostHogEndpoint().handleLazily(request)
  }

  /// Whether `body` is one JSON object with an `events` member and no `batch` member, read
  /// without building it (a tree of a 20 MB PostHog batch only to look at its keys costs ~45× the
  /// body).
  static func isAmplitude(_ body: [UInt8]) -> Bool {
    body.withUnsafeBufferPointer { bytes in
      var cursor = JSONCursor(bytes)
      cursor.skipWhitespace()
      guard cursor.peek == UInt8(ascii: "{") else { return false }
      var (events, batch) = (false, false)
      do {
        try cursor.open()
        var first = true
        while let key = try cursor.nextKey(first: first) {
          first = false
          if key.elementsEqual("events".utf8) { events = true }
          if key.elementsEqual("batch".utf8) { batch = true }
          try cursor.skipValue()
        }
        try cursor.expectEnd()
      } catch {
        return false
      }
      return events && !batch
    }
  }
}
