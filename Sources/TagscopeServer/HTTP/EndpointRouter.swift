import AnalyticsHub
import AnalyticsProviders
import NIOHTTP1
import TagscopeRecording

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
    if method == .GET, acceptsGET(trimmed, endpoint) { return .endpoint(endpoint) }
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

  /// Whether a request to `path` may be a `GET`: the registry says so of its path, or, for a path
  /// matched by its prefix, of one of its provider's paths.
  private static func acceptsGET(_ path: String, _ endpoint: any SDKEndpoint) -> Bool {
    byPath[path] == nil ? takesGET.contains(endpoint.provider) : getPaths.contains(path)
  }

  /// The providers whose SDK paths take `GET` (the registry's endpoint shapes).
  private static let takesGET = Set(
    Vendors.all.filter { vendor in vendor.endpoints.contains { $0.shape.takesGET } }.map(\.id.rawValue))

  /// The exact paths that take `GET`.
  private static let getPaths = Set(Vendors.endpoints.filter(\.shape.takesGET).map(\.path))

  private static func endpoint(for path: String) -> (any SDKEndpoint)? {
    byPath[path] ?? MParticleEndpoint.web(path: path) ?? MParticleNativeEndpoint.matching(path: path)
      ?? MParticleIdentityEndpoint.matching(path: path) ?? AdobeEdgeEndpoint.matching(path: path)
      ?? AdobeAnalyticsHit.matching(path: path)
  }

  private static let byPath = Dictionary(paths.map { ($0.path, $0.endpoint) }) { first, _ in first }

  /// The SDK event endpoints by path, read from the vendor registry (``Vendors/endpoints``;
  /// besides mParticle's web and mobile SDKs, whose paths hold their key or mpid:
  /// ``MParticleEndpoint/web(path:)``, ``MParticleNativeEndpoint/matching(path:)``,
  /// ``MParticleIdentityEndpoint/matching(path:)``): what `route` serves.
  static let paths: [EndpointPath] = Vendors.endpoints.compactMap { endpoint in
    decoder(endpoint.decoder).map { EndpointPath(endpoint.path, endpoint.summary, $0) }
  }

  /// The decoder of a registry endpoint served at its exact path; `nil` for the paths matched by
  /// their prefix (mParticle's SDKs, which carry a key or mpid; Adobe Analytics' hits, which carry
  /// the report suite).
  static func decoder(_ decoder: Vendor.Decoder) -> (any SDKEndpoint)? {
    switch decoder {
    case .segment(let impliedType): return SegmentEndpoint(impliedType: impliedType)
    case .segmentOrMParticleIdentify: return SegmentOrMParticleIdentify()
    case .amplitude: return AmplitudeEndpoint(isBatchAPI: false)
    case .amplitudeOrPostHogBatch: return BatchEndpoint()
    case .mixpanel(let api): return MixpanelEndpoint(api: mixpanelAPI(api))
    case .posthog: return PostHogEndpoint()
    case .snowplow: return SnowplowEndpoint()
    case .firebaseUpload: return FirebaseUploadEndpoint()
    case .mparticleEvents(let bulk): return MParticleEndpoint(isBulk: bulk)
    case .ga4MeasurementProtocol(let validation): return GA4Endpoint(isValidation: validation)
    case .ga4Gtag: return GA4GtagEndpoint()
    case .adobeEdge(let collect): return AdobeEdgeEndpoint(isCollect: collect)
    case .adobeAnalytics: return nil
    case .braze: return BrazeEndpoint()
    case .piano: return PianoEndpoint()
    case .atInternetHit: return ATInternetHitEndpoint()
    case .fpti: return FPTIEndpoint()
    case .mparticleWeb, .mparticleNative, .mparticleIdentity: return nil
    }
  }

  private static func mixpanelAPI(_ api: Vendor.MixpanelAPI) -> MixpanelEndpoint.API {
    switch api {
    case .track: return .track
    case .importEvents: return .importEvents
    case .engage: return .engage
    case .groups: return .groups
    }
  }
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
  var provider: String { "\(Vendors.amplitude)|\(Vendors.posthog)" }
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
