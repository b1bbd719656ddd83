import AnalyticsHub

extension Vendor {
  /// A bound a vendor documents (or Tagscope sets where the vendor documents none) on one request
  /// and one event of some of its SDK paths. `listen` and the proxy hold each request to it: past
  /// it the request gets ``pastIt``, the vendor's own answer, and nothing of it is recorded. Sizes
  /// are of the body as received, after `Content-Encoding`; an event's are its JSON object's bytes.
  public struct Limit: Sendable, Hashable {
    /// The vendor it belongs to (set by the descriptor that lists it).
    public internal(set) var vendor: ProviderID = ""
    /// The SDK paths it holds for, as the vendor's ``Endpoint/path``s spell them.
    public let paths: [String]
    /// The most bytes one request's body may hold.
    public let requestBytes: Int
    /// The most bytes one event may hold; `nil` when only the request bounds it.
    public let eventBytes: Int?
    /// The most events (messages, batches) one request may hold; `nil` when unbounded.
    public let eventsPerRequest: Int?
    /// What the vendor answers past it (`400 request_too_large`).
    public let pastIt: String
    /// Where the bound is written down (a documentation page or an SDK's source file), or why it is
    /// Tagscope's own.
    public let source: String

    /// A limit.
    public init(
      paths: [String], requestBytes: Int, eventBytes: Int? = nil,
      eventsPerRequest: Int? = nil, pastIt: String, source: String
    ) {
      self.paths = paths
      self.requestBytes = requestBytes
      self.eventBytes = eventBytes
      self.eventsPerRequest = eventsPerRequest
      self.pastIt = pastIt
      self.source = source
    }

    /// `500 KB a request, 32 KB an event, 2,500 events`, as `tagscope help listen` prints it.
    public var summary: String {
      var parts = ["\(Self.size(requestBytes)) a request"]
      if let eventBytes { parts.append("\(Self.size(eventBytes)) an event") }
      if let eventsPerRequest { parts.append("\(Self.count(eventsPerRequest)) events") }
      return parts.joined(separator: ", ")
    }

    /// One line for `tagscope help listen`: the vendor, ``summary``, ``pastIt`` and ``source``.
    public var helpLine: String {
      let name = Vendors.vendor(named: vendor.rawValue)?.shortName ?? vendor.rawValue
      return "\(name): \(summary); past it \(pastIt) (\(source))"
    }

    /// `32 KB`, `4 MB`, `130 kB` (GA4 counts in thousands), `1,000 bytes`.
    static func size(_ bytes: Int) -> String {
      if bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MB" }
      if bytes % 1024 == 0 { return "\(bytes / 1024) KB" }
      if bytes % 1000 == 0 { return "\(bytes / 1000) kB" }
      return "\(count(bytes)) bytes"
    }

    /// `2,500`.
    static func count(_ value: Int) -> String {
      let digits = String(value)
      var out = ""
      for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
      }
      return out
    }
  }
}

extension Vendors {
  /// Every SDK path's limits, each vendor's in the registry's order (``Vendor/limits``): what
  /// `listen` and the proxy hold requests to, and what `tagscope help listen` lists.
  public static let limits: [Vendor.Limit] = all.flatMap(\.limits)

  /// The limits that hold for `path` (several vendors may share one: Segment's batch paths are
  /// RudderStack's too).
  public static func limits(forPath path: String) -> [Vendor.Limit] {
    limits.filter { $0.paths.contains(path) }
  }
}
