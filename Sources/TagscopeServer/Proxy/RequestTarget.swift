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

  init(_ uri: String) {
    guard let separator = uri.range(of: "://"), uri.first != "/" else {
      scheme = nil
      host = nil
      port = nil
      originForm = uri.isEmpty ? "/" : uri
      return
    }
    let scheme = uri[..<separator.lowerBound].lowercased()
    let rest = uri[separator.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    let pathAndQuery = String(rest[authorityEnd...])
    self.scheme = scheme
    let parsed = Authority(String(authority), defaultPort: scheme == "https" ? 443 : 80)
    host = parsed?.host
    port = parsed?.port
    originForm = pathAndQuery.isEmpty ? "/" : (pathAndQuery.first == "?" ? "/" + pathAndQuery : pathAndQuery)
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
/// brackets), no user information.
struct Authority: Equatable {
  let host: String
  let port: Int

  init?(_ text: String, defaultPort: Int?) {
    guard !text.isEmpty, !text.contains("@") else { return nil }
    var hostPart = Substring(text)
    var portPart: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      hostPart = text[text.index(after: text.startIndex)..<close]
      let after = text[text.index(after: close)...]
      if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty { return nil }
    } else if let colon = text.lastIndex(of: ":") {
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
    }
    let port: Int
    if let portPart {
      guard let value = Int(portPart), (1...65_535).contains(value) else { return nil }
      port = value
    } else {
      guard let defaultPort else { return nil }
      port = defaultPort
    }
    let allowed = hostPart.allSatisfy { character in
      character.isASCII && (character.isLetter || character.isNumber || "-._:".contains(character))
    }
    guard !hostPart.isEmpty, hostPart.count <= 253, allowed else { return nil }
    host = hostPart.lowercased()
    self.port = port
  }
}
