/// Host names, IP addresses and e-mail addresses.
extension ValueFormat {
  /// A host name (``HostName``), ASCII labels only unless `international`.
  static func isHostname(_ bytes: ArraySlice<UInt8>, international: Bool) -> Bool {
    HostName.accepts(String(decoding: bytes, as: UTF8.self), international: international)
  }

  /// Four decimal numbers 0 to 255, without leading zeros, between dots.
  static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
    let parts = bytes.split(separator: 46, omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        guard (1...3).contains(part.count), part.allSatisfy(isDigit), part.count == 1 || part.first != 48
        else {
          return false
        }
        return part.reduce(0) { $0 * 10 + Int($1 - 48) } <= 255
      }
  }

  /// Eight groups of 1 to 4 hexadecimal digits between colons, `::` once for a run of zero
  /// groups, the last two groups possibly a dotted IPv4 address; no zone.
  static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
    let text = Array(bytes)
    var gap: Int?
    for index in text.indices.dropLast() where text[index] == 58 && text[index + 1] == 58 {
      guard gap == nil else { return false }
      gap = index
    }
    func groups(_ part: ArraySlice<UInt8>, last: Bool) -> Int? {
      if part.isEmpty { return 0 }
      let pieces = part.split(separator: 58, omittingEmptySubsequences: false)
      var count = 0
      for (index, piece) in pieces.enumerated() {
        if last, index == pieces.count - 1, piece.contains(46) {
          guard isIPv4(piece) else { return nil }
          count += 2
        } else {
          guard (1...4).contains(piece.count), piece.allSatisfy(isHex) else { return nil }
          count += 1
        }
      }
      return count
    }
    guard let gap else { return groups(text[...], last: true) == 8 }
    guard let head = groups(text[..<gap], last: false), let tail = groups(text[(gap + 2)...], last: true)
    else {
      return false
    }
    return head + tail <= 7
  }

  /// A local part (dot-separated atoms or a quoted string) `@` a host name or an address literal
  /// (`[127.0.0.1]`, `[IPv6:::1]`); `international` also takes non-ASCII characters.
  static func isEmail(_ bytes: [UInt8], international: Bool) -> Bool {
    var index = 0
    if bytes.first == 34 {
      index = 1
      while index < bytes.count, bytes[index] != 34 {
        if bytes[index] == 92 { index += 1 }
        guard index < bytes.count, bytes[index] >= 32, bytes[index] != 127 || international else {
          return false
        }
        index += 1
      }
      guard index < bytes.count, index > 1 else { return false }
      index += 1
    } else {
      let atext = Set("!#$%&'*+-/=?^_`{|}~".utf8)
      var previous: UInt8 = 46
      while index < bytes.count, bytes[index] != 64 {
        let byte = bytes[index]
        if byte == 46 {
          guard previous != 46 else { return false }
        } else {
          let letter = isDigit(byte) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 122)
          guard letter || atext.contains(byte) || (international && byte >= 0x80) else { return false }
        }
        previous = byte
        index += 1
      }
      guard index > 0, previous != 46 else { return false }
    }
    guard index < bytes.count, bytes[index] == 64 else { return false }
    let domain = bytes[(index + 1)...]
    guard domain.first == 91 else { return isHostname(domain, international: international) }
    guard domain.last == 93, domain.count > 2 else { return false }
    let literal = domain.dropFirst().dropLast()
    let prefix = Array("IPv6:".utf8)
    if literal.starts(with: prefix) { return isIPv6(literal.dropFirst(prefix.count)) }
    return isIPv4(literal)
  }
}
