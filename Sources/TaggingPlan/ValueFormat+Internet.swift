/// Host names, IP addresses and e-mail addresses.
extension ValueFormat {
  /// Dot-separated labels (each 1 to 63 characters of letters, digits and inner hyphens; `--` at
  /// 3-4 only in a valid punycode `xn--` label), 253 characters at most; `international` also
  /// takes labels of non-ASCII letters and the ideographic full stops.
  static func isHostname(_ bytes: ArraySlice<UInt8>, international: Bool) -> Bool {
    guard !bytes.isEmpty else { return false }
    if !international || bytes.allSatisfy({ $0 < 0x80 }) {
      guard bytes.count <= 253 else { return false }
      return bytes.split(separator: 46, omittingEmptySubsequences: false).allSatisfy { isLabel(Array($0)) }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let stops: Set<Unicode.Scalar> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]
    let labels = text.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: stops.contains)
    return labels.allSatisfy { label in
      if label.allSatisfy(\.isASCII) { return isLabel(Array(String(String.UnicodeScalarView(label)).utf8)) }
      guard let first = label.first, let last = label.last, first != "-", last != "-",
        !first.properties.isGraphemeExtend, label.count <= 63
      else { return false }
      return label.allSatisfy { scalar in
        scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
          || scalar.properties.isGraphemeExtend
      }
    }
  }

  /// One ASCII label of a host name.
  private static func isLabel(_ label: [UInt8]) -> Bool {
    guard let first = label.first, let last = label.last, label.count <= 63, first != 45, last != 45,
      label.allSatisfy({ isDigit($0) || (($0 | 0x20) >= 97 && ($0 | 0x20) <= 122) || $0 == 45 })
    else { return false }
    guard label.count >= 4, label[2] == 45, label[3] == 45 else { return true }
    guard (label[0] | 0x20) == 120, (label[1] | 0x20) == 110 else { return false }
    return Punycode.decodes(Array(label[4...]))
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

/// RFC 3492 punycode, decoded only to tell whether an `xn--` label is well formed.
enum Punycode {
  /// Whether `label` (after `xn--`) decodes to at least one non-ASCII character.
  static func decodes(_ label: [UInt8]) -> Bool {
    let base = 36
    var output: [UInt32] = []
    var rest = label[...]
    if let delimiter = label.lastIndex(of: 45) {
      output = label[..<delimiter].map(UInt32.init)
      guard output.allSatisfy({ $0 < 0x80 }) else { return false }
      rest = label[(delimiter + 1)...]
    }
    guard !rest.isEmpty else { return false }
    var code = 128
    var bias = 72
    var index = 0
    var position = rest.startIndex
    while position < rest.endIndex {
      let oldIndex = index
      var weight = 1
      var k = base
      while true {
        guard position < rest.endIndex else { return false }
        let byte = rest[position] | 0x20
        position += 1
        let digit: Int
        if byte >= 97 && byte <= 122 {
          digit = Int(byte - 97)
        } else if byte >= 48 && byte <= 57 {
          digit = Int(byte - 48) + 26
        } else {
          return false
        }
        let (product, overflow) = digit.multipliedReportingOverflow(by: weight)
        guard !overflow, index <= Int(Int32.max) - product else { return false }
        index += product
        let threshold = k <= bias ? 1 : (k >= bias + 26 ? 26 : k - bias)
        if digit < threshold { break }
        weight *= base - threshold
        guard weight < Int(Int32.max) else { return false }
        k += base
      }
      let count = output.count + 1
      var delta = oldIndex == 0 ? (index - oldIndex) / 700 : (index - oldIndex) / 2
      delta += delta / count
      var shift = 0
      while delta > ((base - 1) * 26) / 2 {
        delta /= base - 1
        shift += base
      }
      bias = shift + (base * delta) / (delta + 38)
      code += index / count
      index %= count
      guard code <= 0x10FFFF, !(0xD800...0xDFFF).contains(code) else { return false }
      output.insert(UInt32(code), at: index)
      index += 1
    }
    return output.contains { $0 >= 0x80 }
  }
}
