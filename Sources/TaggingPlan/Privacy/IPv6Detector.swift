extension PIIScan {
  /// IPv6 addresses: a run of hex digits, colons and dots at a boundary, read once: groups of 1 to 4
  /// hex digits, eight of them, or fewer with one `::`, the last two possibly a dotted IPv4; at least
  /// two groups and one of four digits or with a letter, so times (`10:00:04`), MAC addresses (six
  /// groups, no `::`) and `::1` are not addresses.
  mutating func findIPv6() {
    var index = 0
    while index < count {
      steps += 1
      let byte = text[index]
      guard PIIBytes.isHex(byte) || byte == UInt8(ascii: ":"),
        index == 0
          || !(PIIBytes.isAlnum(text[index - 1]) || text[index - 1] == UInt8(ascii: ":")
            || text[index - 1] == UInt8(ascii: "."))
      else {
        index += 1
        continue
      }
      var end = index
      while end < count,
        PIIBytes.isHex(text[end]) || text[end] == UInt8(ascii: ":") || text[end] == UInt8(ascii: ".")
      {
        end += 1
        steps += 1
      }
      while end > index, text[end - 1] == UInt8(ascii: ".") { end -= 1 }
      if !PIIBytes.isAlnum(at(end)), isIPv6(index..<end) { add(.ip, index..<end) }
      index = max(end, index + 1)
      while index < count, PIIBytes.isAlnum(text[index]) {
        index += 1
        steps += 1
      }
    }
  }

  func isIPv6(_ range: Range<Int>) -> Bool {
    guard range.count >= 6, range.count <= 45 else { return false }
    let lower = range.lowerBound
    let upper = range.upperBound
    var compressed = false
    var index = lower
    while index + 1 < upper {
      if text[index] == UInt8(ascii: ":"), text[index + 1] == UInt8(ascii: ":") {
        guard !compressed, at(index + 2) != UInt8(ascii: ":") else { return false }
        compressed = true
        index += 2
      } else {
        index += 1
      }
    }
    if text[lower] == UInt8(ascii: ":"), text[lower + 1] != UInt8(ascii: ":") { return false }
    if text[upper - 1] == UInt8(ascii: ":"), text[upper - 2] != UInt8(ascii: ":") { return false }
    var groups = 0
    var strong = false
    var fieldStart = lower
    index = lower
    while index <= upper {
      guard index == upper || text[index] == UInt8(ascii: ":") else {
        index += 1
        continue
      }
      let field = fieldStart..<index
      fieldStart = index + 1
      index += 1
      if field.isEmpty { continue }
      if text[field].contains(UInt8(ascii: ".")) {
        // A dotted IPv4 tail ends the address and counts as two groups.
        guard field.upperBound == upper, isDottedQuad(field) else { return false }
        groups += 2
        strong = true
        continue
      }
      guard field.count <= 4 else { return false }
      groups += 1
      if field.count == 4 || text[field].contains(where: PIIBytes.isAlpha) { strong = true }
    }
    guard groups >= 2, strong else { return false }
    return compressed ? groups <= 7 : groups == 8
  }

  /// Four dotted numbers of 0 to 255.
  func isDottedQuad(_ range: Range<Int>) -> Bool {
    var octets = 0
    var value = 0
    var length = 0
    for position in range.lowerBound...range.upperBound {
      if position == range.upperBound || text[position] == UInt8(ascii: ".") {
        guard length > 0 else { return false }
        octets += 1
        value = 0
        length = 0
        continue
      }
      guard PIIBytes.isDigit(text[position]) else { return false }
      value = value * 10 + Int(text[position] - UInt8(ascii: "0"))
      length += 1
      guard value <= 255, length <= 3 else { return false }
    }
    return octets == 4
  }
}
