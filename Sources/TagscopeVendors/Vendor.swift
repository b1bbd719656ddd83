import AnalyticsHub

/// An analytics vendor Tagscope knows, and on which paths its calls reach a plan: everything
/// Tagscope knows of it, as data (one descriptor per vendor, one file per vendor, listed in
/// ``Vendors/all``).
public struct Vendor: Sendable, Hashable {
  /// How a vendor's calls reach Tagscope.
  public enum Path: String, Sendable, Hashable, CaseIterable {
    /// An in-app provider of the hub (`Firebase.provider(…)`), with documented rules.
    case inApp = "in-app"
    /// Its SDKs' HTTP requests, decoded by `listen` and the proxy.
    case sdk
    /// Its SDK's debug log, read by `listen --log`.
    case log
  }

  /// The id plans, recordings and reports use (`amplitude`).
  public let id: ProviderID
  /// Its name for people (`Amplitude`).
  public let name: String
  /// Other ids it goes by in recordings and plans (`ga4` for Firebase's Google Analytics).
  public let aliases: [String]
  /// How its calls reach Tagscope.
  public let paths: Set<Path>
  /// The SDK paths `listen` serves for it, read by listen's router.
  public let endpoints: [Endpoint]
  /// Where its SDK messages, as `listen` records them, keep their fields; `nil` without SDK path.
  public let messages: MessageFields?
  /// Where its SDK messages say who sent them, one entry per form of message its decoders read;
  /// empty without SDK path.
  public let identity: [IdentityFields]
  /// The hosts `tagscope proxy` decrypts for it.
  public let proxyHosts: [ProxyHost]
  /// How `tagscope proxy` is told the host of a collector its customer runs; `nil` when it has none.
  public let selfHosted: SelfHosting?
  /// The tracking-plan formats of it that `tagscope plan import` reads.
  public let importFormats: [ImportFormatFacts]
  /// How generated code calls its in-app provider; `nil` when codegen writes `CallDescription`s.
  public let callStyle: CallStyle?
  /// The vendor whose documented rules its calls follow when it has none of its own (GA4's are
  /// Firebase's: the same Google Analytics); `nil` for its own (or none).
  public let rulesOf: ProviderID?
  /// What `tagscope help proxy` says of its SDK's traffic besides its hosts (a host to add, or
  /// why it is tunnelled and not decoded); `nil` when nothing.
  public let wireNote: String?
  /// The bounds its SDK paths hold requests to (``Vendors/limits``).
  public let limits: [Limit]
  /// The set-up requests of its SDKs `listen` answers at once (``Vendors/setupRequests``).
  public let setupRequests: [SetupRequest]
  /// How `tagscope export --har` rebuilds its SDK's requests, first match of a record's call
  /// method; empty when they are not rebuilt.
  public let rebuild: [Rebuild]

  /// A vendor.
  public init(
    id: ProviderID, name: String, aliases: [String] = [], paths: Set<Path>, endpoints: [Endpoint] = [],
    messages: MessageFields? = nil, identity: [IdentityFields] = [], proxyHosts: [ProxyHost] = [],
    selfHosted: SelfHosting? = nil, importFormats: [ImportFormatFacts] = [],
    callStyle: CallStyle? = nil, rulesOf: ProviderID? = nil, wireNote: String? = nil,
    limits: [Limit] = [], setupRequests: [SetupRequest] = [], rebuild: [Rebuild] = []
  ) {
    self.id = id
    self.name = name
    self.aliases = aliases
    self.paths = paths
    self.endpoints = endpoints
    self.messages = messages
    self.identity = identity
    self.proxyHosts = proxyHosts
    self.selfHosted = selfHosted
    self.importFormats = importFormats
    self.callStyle = callStyle
    self.rulesOf = rulesOf
    self.wireNote = wireNote
    self.rebuild = rebuild
    self.limits = limits.map { limit in
      var owned = limit
      owned.vendor = id
      return owned
    }
    self.setupRequests = setupRequests.map { request in
      var owned = request
      owned.vendor = id
      return owned
    }
  }
}
