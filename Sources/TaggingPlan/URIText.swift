/// RFC 3986 URIs and relative references, RFC 3987 IRIs (non-ASCII characters where a URI takes
/// unreserved ones), checked part by part in one pass.
enum URIText {
  private static let subDelims = Set("!$&'()*+,;=".utf8)

  private static func isUnreserved(_ byte: UInt8, _ international: Bool) -> Bool {
    ValueFormat.isDigit(byte) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 122) || byte == 45 || byte == 46
      || byte == 95 || byte == 126 || (international && byte >= 0x80)
  }

  /// Whether `bytes` are unreserved, percent-encoded, sub-delimiters or one of `extra`.
  private static func isMade(of bytes: ArraySlice<UInt8>, extra: Set<UInt8>, _ international: Bool) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == 37 {
        guard index + 2 < bytes.endIndex,
          ValueFormat.isHex(bytes[index + 1]), ValueFormat.isHex(bytes[index + 2])
        else { return false }
        index += 3
        continue
      }
      guard isUnreserved(byte, international) || subDelims.contains(byte) || extra.contains(byte) else {
        return false
      }
      index += 1
    }
    return true
  }

  /// Whether `bytes` is a URI (with a scheme), or also a relative reference when `relative`.
  static func accepts(_ bytes: [UInt8], relative: Bool, international: Bool) -> Bool {
    var rest = bytes[...]
    let pathChars = Set(":@/".utf8)
    if let hash = rest.firstIndex(of: 35) {
      guard isMade(of: rest[(hash + 1)...], extra: Set(":@/?".utf8), international) else { return false }
      rest = rest[..<hash]
    }
    if let question = rest.firstIndex(of: 63) {
      guard isMade(of: rest[(question + 1)...], extra: Set(":@/?".utf8), international) else { return false }
      rest = rest[..<question]
    }
    var hasScheme = false
    if let colon = rest.firstIndex(of: 58), let first = rest.first, (first | 0x20) >= 97,
      (first | 0x20) <= 122,
      rest[rest.startIndex..<colon].allSatisfy({
        ValueFormat.isDigit($0) || (($0 | 0x20) >= 97 && ($0 | 0x20) <= 122) || $0 == 43 || $0 == 45
          || $0 == 46
      })
    {
      hasScheme = true
      rest = rest[(colon + 1)...]
    }
    guard hasScheme || relative else { return false }
    if rest.starts(with: [47, 47]) {
      rest = rest.dropFirst(2)
      let end = rest.firstIndex(of: 47) ?? rest.endIndex
      guard isAuthority(rest[..<end], international) else { return false }
      rest = rest[end...]
    } else if !hasScheme {
      let segmentEnd = rest.firstIndex(of: 47) ?? rest.endIndex
      guard !rest[..<segmentEnd].contains(58) else { return false }
    }
    return isMade(of: rest, extra: pathChars, international)
  }

  /// `[userinfo@]host[:port]`, the host a name, an IPv4 address or a bracketed IPv6 (or future)
  /// literal.
  private static func isAuthority(_ authority: ArraySlice<UInt8>, _ international: Bool) -> Bool {
    var rest = authority
    if let at = rest.lastIndex(of: 64) {
      guard isMade(of: rest[..<at], extra: [58], international) else { return false }
      rest = rest[(at + 1)...]
    }
    if rest.first == 91 {
      guard let close = rest.firstIndex(of: 93) else { return false }
      let literal = rest[(rest.startIndex + 1)..<close]
      let isFuture =
        ((literal.first ?? 0) | 0x20) == 118 && literal.contains(46)
        && isMade(of: literal.dropFirst(), extra: [58], false)
      guard ValueFormat.isIPv6(literal) || isFuture else { return false }
      rest = rest[(close + 1)...]
      guard rest.isEmpty || rest.first == 58 else { return false }
    } else {
      let end = rest.firstIndex(of: 58) ?? rest.endIndex
      guard isMade(of: rest[..<end], extra: [], international) else { return false }
      rest = rest[end...]
    }
    return rest.isEmpty || rest.dropFirst().allSatisfy(ValueFormat.isDigit)
  }
}
