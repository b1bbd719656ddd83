/// Decodes `application/x-www-form-urlencoded` text and URL query strings, byte by byte (`&`,
/// `=`, `+` and `%` are ASCII, so they never fall inside a multi-byte character).
enum FormDecoding {
  /// The `name=value` pairs of `text`, percent-decoded (`+` is a space), in order.
  static func pairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
    if let pairs = text.utf8.withContiguousStorageIfAvailable({ pairs(bytes: $0) }) { return pairs }
    return Array(text.utf8).withUnsafeBufferPointer { pairs(bytes: $0) }
  }

  /// The pairs of form bytes (see ``pairs(_:)``).
  static func pairs(bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
      if end > start {
        var equals = start
        while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
        if equals < end {
          result.append(
            (
              decode(bytes: UnsafeBufferPointer(rebasing: bytes[start..<equals])),
              decode(bytes: UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]))
            ))
        } else {
          result.append((decode(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end])), ""))
        }
      }
      start = end + 1
    }
    return result
  }

  /// `text` with `+` as space and `%XX` escapes decoded; malformed escapes are kept as written.
  static func decode(_ text: some StringProtocol) -> String {
    if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
    return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
  }

  /// ``decode(_:)`` of bytes: a part without `+` or `%` becomes a string as it is.
  static func decode(bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "+"): decoded.append(0x20)
      case UInt8(ascii: "%"):
        if index + 1 < bytes.count, let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) {
          decoded.append(high << 4 | low)
          index += 2
        } else {
          decoded.append(byte)
        }
      default: decoded.append(byte)
      }
    }
    return String(decoding: decoded, as: UTF8.self)
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
