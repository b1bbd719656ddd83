import AnalyticsHub

/// An analytics vendor Tagscope knows, and on which paths its calls reach a plan.
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

  /// A vendor.
  public init(id: ProviderID, name: String, aliases: [String] = [], paths: Set<Path>) {
    self.id = id
    self.name = name
    self.aliases = aliases
    self.paths = paths
  }
}
