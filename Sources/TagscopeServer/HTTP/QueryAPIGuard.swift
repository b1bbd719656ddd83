import NIOHTTP1

/// Keeps web pages away from the query API (`/tagscope/v1/…`), which answers what the apps sent and
/// can reset the session: a request carrying an `Origin` (a browser's, from some page) is refused
/// unless `--cors-origin` names that origin, and so is a `Host` that is not this server's address
/// (a DNS-rebinding page reaches loopback under its own name). Only the named origin gets an
/// `Access-Control-Allow-Origin` header. The SDK endpoints are not concerned: browser SDKs send
/// `Origin` to them and get `*`.
struct QueryAPIGuard: Sendable {
  /// The address the server is bound to (`--bind`).
  var boundHost: String
  /// The one web origin allowed to call the query API (`--cors-origin`), if any.
  var corsOrigin: String?

  init(configuration: ListenConfiguration) {
    boundHost = configuration.host
    corsOrigin = configuration.corsOrigin
  }

  /// Why a query API request with `headers`, received on `port`, is refused (`403`); `nil` when it
  /// is not.
  func refusal(headers: HTTPHeaders, port: Int?) -> String? {
    if let origin = headers.first(name: "origin"), origin != corsOrigin {
      return "the query API does not answer web pages (Origin header); allow one origin with --cors-origin"
    }
    if let host = headers.first(name: "host"), !allows(host: host, port: port) {
      return "the Host header does not name this server (localhost, 127.0.0.1, [::1] or the --bind address)"
    }
    return nil
  }

  /// The `Access-Control-Allow-Origin` of a query API reply: the request's origin when it is the one
  /// `--cors-origin` allows, else none.
  func allowedOrigin(headers: HTTPHeaders) -> String? {
    guard let corsOrigin, headers.first(name: "origin") == corsOrigin else { return nil }
    return corsOrigin
  }

  /// Whether `host` (`name[:port]`) names this server: loopback by name or address, the bound
  /// address, or (bound to every interface) any IP address; its port, when given, is `port`.
  func allows(host: String, port: Int?) -> Bool {
    guard let (name, given) = Self.split(host.lowercased()) else { return false }
    if let given, let port, given != port { return false }
    let bound =
      boundHost.contains(":") && !boundHost.hasPrefix("[") ? "[\(boundHost.lowercased())]" : boundHost
    if ["localhost", "127.0.0.1", "[::1]", bound.lowercased()].contains(name) { return true }
    let wildcard = ["0.0.0.0", "::", "[::]", ""].contains(boundHost)
    return wildcard && (Self.isIPv4(name) || Self.isBracketedIPv6(name))
  }

  /// The name and port of a `Host` value; `nil` when it is malformed.
  static func split(_ host: String) -> (name: String, port: Int?)? {
    var name = Substring(host)
    var rest = Substring("")
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return nil }
      name = host[...close]
      rest = host[host.index(after: close)...]
    } else if let colon = host.firstIndex(of: ":") {
      name = host[..<colon]
      rest = host[colon...]
    }
    if name.hasSuffix(".") { name = name.dropLast() }
    guard !name.isEmpty else { return nil }
    if rest.isEmpty { return (String(name), nil) }
    guard rest.first == ":", let port = Int(rest.dropFirst()), (0...65_535).contains(port) else { return nil }
    return (String(name), port)
  }

  private static func isIPv4(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        (1...3).contains(part.count) && part.allSatisfy(\.isASCII) && Int(part).map { $0 <= 255 } == true
      }
  }

  private static func isBracketedIPv6(_ name: String) -> Bool {
    guard name.hasPrefix("["), name.hasSuffix("]"), name.count > 2 else { return false }
    return name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
  }
}
