import AnalyticsHub

extension Vendor {
  /// A set-up request an official SDK makes before (or beside) sending events — its settings, its
  /// remote configuration, its own telemetry — which `listen` answers at once with the smallest
  /// valid reply that keeps the SDK pointed at it, and records nothing of.
  public struct SetupRequest: Sendable, Hashable {
    /// What `listen` answers.
    public enum Reply: Sendable, Hashable {
      /// `200` with this JSON body.
      case fixed(String)
      /// Segment's project settings: its `Segment.io` integration's `apiHost` is the host the
      /// request reached, so the SDK keeps uploading there (the `KEY` segment is the write key).
      case segmentSettings
      /// RudderStack's source configuration: an enabled source without destinations, so the SDK
      /// sends everything to its data plane (the `writeKey` query parameter names the source).
      case rudderStackSourceConfig
    }

    /// The vendor whose SDKs send it (set by the descriptor that lists it).
    public internal(set) var vendor: ProviderID = ""
    /// The methods it comes with (`GET`, or `GET` and `POST`).
    public let methods: [String]
    /// Its path; `KEY` stands for a segment the SDK fills in (`/v1/projects/KEY/settings`).
    public let path: String
    /// Which SDKs send it and what for, for `tagscope help listen`.
    public let summary: String
    /// What `listen` answers.
    public let reply: Reply

    /// A set-up request.
    public init(methods: [String], path: String, summary: String, reply: Reply) {
      self.methods = methods
      self.path = path
      self.summary = summary
      self.reply = reply
    }

    /// The segment `KEY` stands for in `path` (`""` when the path has none), or `nil` when `path`
    /// (without a trailing `/`) is not this request's.
    public func key(inPath path: String) -> String? {
      let parts = path.split(separator: "/", omittingEmptySubsequences: true)
      let pattern = self.path.split(separator: "/", omittingEmptySubsequences: true)
      guard parts.count == pattern.count else { return nil }
      var key = ""
      for (part, expected) in zip(parts, pattern) {
        if expected == "KEY" {
          key = String(part)
        } else if part != expected {
          return nil
        }
      }
      return key
    }
  }
}

extension Vendors {
  /// Every SDK set-up request `listen` answers, each vendor's in the registry's order
  /// (``Vendor/setupRequests``).
  public static let setupRequests: [Vendor.SetupRequest] = all.flatMap(\.setupRequests)
}
