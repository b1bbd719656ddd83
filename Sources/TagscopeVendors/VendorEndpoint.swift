extension Vendor {
  /// One SDK path `tagscope listen` serves: the path, which SDK sends it, what it takes, and the
  /// decoder listen's router hands it to.
  public struct Endpoint: Sendable, Hashable {
    /// The path (`/v1/batch`); `KEY` or `MPID` stand for a path segment an SDK fills in
    /// (`/v2/KEY/events`).
    public let path: String
    /// Which SDK sends it, for `tagscope help listen`.
    public let summary: String
    /// What the path takes.
    public let shape: Shape
    /// The decoder listen hands its requests to.
    public let decoder: Decoder

    /// An endpoint.
    public init(_ path: String, _ summary: String, _ shape: Shape, _ decoder: Decoder) {
      self.path = path
      self.summary = summary
      self.shape = shape
      self.decoder = decoder
    }

    /// Whether its path holds a segment an SDK fills in (`KEY`, `MPID`).
    public var isTemplate: Bool { path.contains("KEY") || path.contains("MPID") }
  }

  /// The HTTP methods, content types, payload encodings and credentials of an SDK path.
  public struct Shape: Sendable, Hashable {
    /// The methods its requests use besides `OPTIONS` (`POST`, or `POST` and `GET`).
    public let methods: [String]
    /// The content types its bodies take.
    public let contentTypes: [String]
    /// How the payload is written (`JSON`, `form data= (JSON or base64 JSON)`, `query string`).
    public let encodings: [String]
    /// Where its requests carry their credential (`basic auth user (write key) or writeKey`).
    public let auth: String
    /// The query parameters that carry its key (GA4's `api_secret`), which `listen --token`
    /// accepts as the token.
    public let queryKeys: [String]

    /// A shape.
    public init(
      methods: [String], contentTypes: [String], encodings: [String], auth: String, queryKeys: [String] = []
    ) {
      self.methods = methods
      self.contentTypes = contentTypes
      self.encodings = encodings
      self.auth = auth
      self.queryKeys = queryKeys
    }

    /// Whether its requests may be `GET`s.
    public var takesGET: Bool { methods.contains("GET") }
  }

  /// The decoders of `listen`'s SDK endpoints (the code lives in TagscopeServer's `SDK` folder).
  public enum Decoder: Sendable, Hashable {
    /// Segment's (and RudderStack's) HTTP API; single-call paths imply their message type.
    case segment(impliedType: String?)
    /// `/v1/identify`: Segment's identify, or mParticle's IDSync identify.
    case segmentOrMParticleIdentify
    /// Amplitude's HTTP V2 API.
    case amplitude
    /// `/batch`: Amplitude's Batch API (an `events` array), else PostHog's batch.
    case amplitudeOrPostHogBatch
    /// Mixpanel's ingestion API.
    case mixpanel(MixpanelAPI)
    /// PostHog's capture API.
    case posthog
    /// Snowplow's tracker protocol 2.
    case snowplow
    /// Firebase Analytics' own uploads (`/a`): gzip'd protobuf.
    case firebaseUpload
    /// mParticle's server Events API (`bulk`: an array of batches).
    case mparticleEvents(bulk: Bool)
    /// mParticle's web SDK (the key in the path).
    case mparticleWeb
    /// mParticle's iOS and Android SDKs (the key in the path).
    case mparticleNative
    /// mParticle's IDSync calls.
    case mparticleIdentity
    /// GA4's Measurement Protocol (`validation`: its debug endpoint).
    case ga4MeasurementProtocol(validation: Bool)
    /// GA4's gtag.js hits.
    case ga4Gtag
    /// Adobe Experience Platform Edge (`collect`: answered without a body).
    case adobeEdge(collect: Bool)
    /// Adobe Analytics hits (`/b/ss/…`, matched by prefix).
    case adobeAnalytics
    /// Braze's SDK data endpoint (`/api/v3/data`).
    case braze
    /// Piano Analytics' collection endpoint (`/event`).
    case piano
    /// AT Internet's legacy hits (`/hit.xiti`).
    case atInternetHit
    /// PayPal's tracking API: its SDKs' FPTI events and batches.
    case fpti
  }

  /// Mixpanel's ingestion APIs.
  public enum MixpanelAPI: String, Sendable, Hashable {
    /// `/track`.
    case track
    /// `/import`.
    case importEvents
    /// `/engage`.
    case engage
    /// `/groups`.
    case groups
  }
}

extension Vendor {
  /// The prefixes of the paths `decoder` serves that end with `suffix` (`/v2/` of
  /// `/v2/KEY/events`): how listen matches the paths an SDK fills in.
  public func pathPrefixes(of decoder: Decoder, before suffix: String) -> [String] {
    endpoints.filter { $0.decoder == decoder && $0.path.hasSuffix(suffix) }.map {
      String($0.path.dropLast(suffix.count))
    }
  }
}
