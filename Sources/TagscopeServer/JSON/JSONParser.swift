import AnalyticsHub

/// Why a JSON text could not be parsed, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Byte offset of the problem in the text.
  public var offset: Int
  /// What was wrong, in a few words.
  public var reason: String

  public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict, allocation-light JSON parser producing typed ``PropertyValue``s.
///
/// Objects keep their key order (a later duplicate key replaces the earlier value); integers that
/// fit `Int` stay integers, every other number is a `Double`. Nesting is bounded so hostile input
/// cannot exhaust the stack.
public enum JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  public static let maximumDepth = 256

  /// Parses one JSON value filling all of `bytes` (surrounding whitespace allowed).
  public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> PropertyValue {
    let array = Array(bytes)
    let result = array.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) -> PropertyValue in try parse(buffer) }
    }
    return try result.get()
  }

  /// Parses one JSON value filling all of `text`.
  public static func parse(_ text: String) throws(JSONParseError) -> PropertyValue {
    try parse(Array(text.utf8))
  }

  /// Parses one JSON value filling all of `buffer`.
  public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> PropertyValue {
    var reader = JSONReader(bytes: buffer)
    reader.skipWhitespace()
    let value = try reader.readValue(depth: 0)
    reader.skipWhitespace()
    guard reader.index == buffer.count else { throw reader.error("unexpected data after the value") }
    return value
  }
}

private struct JSONReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  func error(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  mutating func readValue(depth: Int) throws(JSONParseError) -> PropertyValue {
    guard index < bytes.count else { throw error("unexpected end of text") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return .object(try readObject(depth: depth + 1))
    case UInt8(ascii: "["): return try readArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"):
      try expectWord("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectWord("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectWord("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
    default: throw error("unexpected character")
    }
  }

  mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
    let length = word.utf8CodeUnitCount
    guard index + length <= bytes.count else { throw error("unexpected end of text") }
    let start = word.utf8Start
    for offset in 0..<length where bytes[index + offset] != start[offset] {
      throw error("unexpected character")
    }
    index += length
  }

  mutating func readObject(depth: Int) throws(JSONParseError) -> Properties {
    guard depth <= JSONParser.maximumDepth else {
      throw error("nesting deeper than \(JSONParser.maximumDepth)")
    }
    index += 1
    var properties = Properties()
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return properties
    }
    var seen = Set<String>()
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
      let key = try readString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
      index += 1
      skipWhitespace()
      let value = try readValue(depth: depth)
      if seen.insert(key).inserted {
        properties.appendUnchecked(key, value)
      } else {
        properties[key] = value
      }
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of text") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
      index += 1
      return properties
    }
  }

  mutating func readArray(depth: Int) throws(JSONParseError) -> PropertyValue {
    guard depth <= JSONParser.maximumDepth else {
      throw error("nesting deeper than \(JSONParser.maximumDepth)")
    }
    index += 1
    var values: [PropertyValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(values)
    }
    while true {
      skipWhitespace()
      values.append(try readValue(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of text") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
      index += 1
      return .array(values)
    }
  }

  mutating func readString() throws(JSONParseError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw error("control character in a string") }
      index += 1
    }
    var scratch = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw error("unexpected end of text") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): appendScalar(try readUnicodeEscape(), to: &scratch)
        default: throw error("invalid escape")
        }
      default:
        if byte < 0x20 { throw error("control character in a string") }
        scratch.append(byte)
        index += 1
      }
    }
    throw error("unterminated string")
  }

  mutating func readHex4() throws(JSONParseError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("unexpected end of text") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  mutating func readUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
    let first = try readHex4()
    if (0xD800...0xDBFF).contains(first) {
      if index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
        let saved = index
        index += 2
        let second = try readHex4()
        if (0xDC00...0xDFFF).contains(second) {
          let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
          return Unicode.Scalar(combined) ?? "\u{FFFD}"
        }
        index = saved
      }
      return "\u{FFFD}"
    }
    return Unicode.Scalar(first) ?? "\u{FFFD}"
  }

  func appendScalar(_ scalar: Unicode.Scalar, to scratch: inout [UInt8]) {
    for unit in UTF8.encode(scalar)! { scratch.append(unit) }
  }

  mutating func readNumber() throws(JSONParseError) -> PropertyValue {
    let start = index
    var isInteger = true
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
      throw error("invalid number")
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      let digits = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      guard index > digits else { throw error("invalid number") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      let digits = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      guard index > digits else { throw error("invalid number") }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if isInteger, let value = Int(text) { return .int(value) }
    guard let value = Double(text), value.isFinite else {
      throw JSONParseError(offset: start, reason: "number out of range")
    }
    return .double(value)
  }
}
