import TagscopeVendors

/// The hosts `tagscope proxy` decrypts: those of the SDKs `listen` decodes, plus self-hosted
/// collectors named on the command line. Everything else is tunnelled untouched.
public struct InterceptedHosts: Sendable {
  /// One built-in host (or `*.suffix`) and the SDK it serves.
  public struct Entry: Sendable, Equatable {
    /// The host, or `*.domain` for every host under `domain`.
    public let pattern: String
    /// The SDK it serves, as `tagscope help listen` names it.
    public let sdk: String
  }

  /// The vendors' own hosts, from the vendor registry (``Vendor/proxyHosts``).
  public static let builtIn: [Entry] = Vendors.proxyHosts.map { Entry(pattern: $0.pattern, sdk: $0.sdk) }

  /// Hosts added on the command line (RudderStack data planes, self-hosted PostHog, Snowplow
  /// collectors), lowercased.
  public var extra: Set<String>

  /// The built-in hosts plus `extra`.
  public init(extra: [String] = []) {
    self.extra = Set(
      extra.map { host in
        (try? HostName.check(Substring(host), bracketed: false).get()) ?? host.lowercased()
      })
  }

  /// Whether `text` is a plain host name (letters, digits, `-`, `_`, `.`; no port).
  public static func isHostName(_ text: String) -> Bool { hostNameProblem(text) == nil }

  /// Why `text` is no plain host name (``HostName``'s rules; no port, no brackets), or `nil`.
  public static func hostNameProblem(_ text: String) -> HostProblem? {
    if case .failure(let problem) = HostName.check(Substring(text), bracketed: false) { return problem }
    return nil
  }

  /// Whether `host` is intercepted (its fully qualified form, with a trailing dot, too).
  public func contains(_ host: String) -> Bool {
    let host = (host.hasSuffix(".") ? String(host.dropLast()) : host).lowercased()
    if extra.contains(host) { return true }
    return Self.builtIn.contains { entry in
      if entry.pattern.hasPrefix("*.") { return host.hasSuffix(entry.pattern.dropFirst()) }
      return entry.pattern == host
    }
  }
}
