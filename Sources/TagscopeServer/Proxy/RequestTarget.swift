/// A request line's target as a proxy sees it: absolute form (`http://host:port/path?query`, what
/// clients send to a proxy for plain HTTP) or origin form (`/path?query`, inside a tunnel).
struct RequestTarget {
  /// `http` or `https` in absolute form, else `nil`.
  let scheme: String?
  /// The authority's host in absolute form, lowercased, without brackets.
  let host: String?
  /// The authority's port in absolute form (the scheme's default when absent).
  let port: Int?
  /// The target in origin form: path and query.
  let originForm: String
  /// Why the authority of an absolute-form target is none (``host`` is then `nil`).
  let hostProblem: HostProblem?

  init(_ uri: String) {
    guard uri.first != "/", let separator = Self.schemeSeparator(in: uri) else {
      scheme = nil
      host = nil
      port = nil
      hostProblem = nil
      originForm = uri.isEmpty ? "/" : uri
      return
    }
    let scheme = uri[..<separator.lowerBound].lowercased()
    let rest = uri[separator.upperBound...]
    // By bytes: `/` and `?` are ASCII, so a byte index is also a character boundary.
    let authorityEnd =
      rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    let pathAndQuery = String(rest[authorityEnd...])
    self.scheme = scheme
    switch Authority.parse(String(authority), defaultPort: scheme == "https" ? 443 : 80) {
    case .success(let parsed):
      (host, port, hostProblem) = (parsed.host, parsed.port, nil)
    case .failure(let problem):
      (host, port, hostProblem) = (nil, nil, problem)
    }
    originForm = pathAndQuery.isEmpty ? "/" : (pathAndQuery.first == "?" ? "/" + pathAndQuery : pathAndQuery)
  }

  /// The first `://` in `uri`, found by bytes (the generic `firstRange(of:)` was a third of a
  /// target's parse in a HAR import's profile).
  private static func schemeSeparator(in uri: String) -> Range<String.Index>? {
    let utf8 = uri.utf8
    var from = utf8.startIndex
    while let colon = utf8[from...].firstIndex(of: UInt8(ascii: ":")) {
      guard let end = utf8.index(colon, offsetBy: 3, limitedBy: utf8.endIndex) else { return nil }
      let slash = utf8.index(after: colon)
      if utf8[slash] == UInt8(ascii: "/"), utf8[utf8.index(after: slash)] == UInt8(ascii: "/") {
        return colon..<end
      }
      from = slash
    }
    return nil
  }

  /// The path, without the query.
  var path: String {
    String(originForm.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }

  /// The query's parameters, percent-decoded.
  var query: [(name: String, value: String)] {
    guard let mark = originForm.firstIndex(of: "?") else { return [] }
    return FormDecoding.pairs(originForm[originForm.index(after: mark)...])
  }
}

/// `host[:port]` as in a `CONNECT` line or an absolute URI: a DNS name or an IP address (IPv6 in
/// brackets), no user information; the host checked by ``HostName``.
struct Authority: Equatable {
  let host: String
  let port: Int

  init?(_ text: String, defaultPort: Int?) {
    guard case .success(let authority) = Self.parse(text, defaultPort: defaultPort) else { return nil }
    self = authority
  }

  private init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// The authority in `text`, or why it is none (for a `400` that names the problem).
  static func parse(_ text: String, defaultPort: Int?) -> Result<Authority, HostProblem> {
    guard !text.isEmpty else { return .failure(HostProblem(description: "the target is empty: host:port")) }
    guard !text.utf8.contains(UInt8(ascii: "@")) else {
      return .failure(HostProblem(description: "a proxy target has no user information (user@)"))
    }
    var hostPart = Substring(text)
    var portPart: Substring?
    let bracketed = text.hasPrefix("[")
    if bracketed {
      guard let close = text.firstIndex(of: "]") else {
        return .failure(HostProblem(description: "an IPv6 address needs its closing ]"))
      }
      hostPart = text[text.index(after: text.startIndex)..<close]
      let after = text[text.index(after: close)...]
      if after.hasPrefix(":") {
        portPart = after.dropFirst()
      } else if !after.isEmpty {
        return .failure(HostProblem(description: "only :port may follow an IPv6 address's ]"))
      }
    } else if text.utf8.lazy.filter({ $0 == UInt8(ascii: ":") }).count > 1 {
      return .failure(HostProblem(description: "an IPv6 address goes in brackets, as [::1]:443"))
    } else if let colon = text.firstIndex(of: ":") {
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
    }
    let port: Int
    if let portPart {
      guard let value = Self.port(portPart) else {
        return .failure(HostProblem(description: "the port must be a number from 1 to 65535"))
      }
      port = value
    } else {
      guard let defaultPort else {
        return .failure(HostProblem(description: "the target needs a port: host:port"))
      }
      port = defaultPort
    }
    return HostName.check(hostPart, bracketed: bracketed).map { Authority(host: $0, port: port) }
  }

  /// Digits only (no sign, no spaces), 1 to 65535.
  private static func port(_ text: Substring) -> Int? {
    guard (1...5).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text),
      (1...65_535).contains(value)
    else { return nil }
    return value
  }
}
