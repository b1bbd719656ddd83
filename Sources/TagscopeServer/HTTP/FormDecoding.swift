/// Decodes `application/x-www-form-urlencoded` text and URL query strings.
enum FormDecoding {
  /// The `name=value` pairs of `text`, percent-decoded (`+` is a space), in order.
  static func pairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    for part in text.split(separator: "&", omittingEmptySubsequences: true) {
      if let equals = part.firstIndex(of: "=") {
        result.append((decode(part[part.startIndex..<equals]), decode(part[part.index(after: equals)...])))
      } else {
        result.append((decode(part), ""))
      }
    }
    return result
  }

  /// `text` with `+` as space and `%XX` escapes decoded; malformed escapes are kept as written.
  static func decode(_ text: some StringProtocol) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(0x20)
      case UInt8(ascii: "%"):
        if iterator.count >= 2, let high = hexValue(iterator[iterator.startIndex]),
          let low = hexValue(iterator[iterator.startIndex + 1])
        {
          bytes.append(high << 4 | low)
          iterator.removeFirst(2)
        } else {
          bytes.append(byte)
        }
      default: bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
