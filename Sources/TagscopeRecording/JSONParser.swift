import AnalyticsHub

/// Why some bytes are not valid JSON, and where (byte offset from the start of the line).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Byte offset of the problem in the line.
  public var offset: Int
  /// What is wrong, in plain words.
  public var reason: String

  public var description: String { "\(reason) at byte \(offset + 1)" }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes producing ``PropertyValue``s, keeping object
/// keys in document order (a repeated key keeps its first position and its last value).
///
/// Integers that fit in `Int` become `.int`, every other number `.double` (integers too large for
/// `Int` included). Strings must be valid UTF-8; `\u` escapes of lone surrogates decode to U+FFFD.
/// Nesting deeper than ``maximumDepth`` is an error rather than a stack overflow.
public struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  public static let maximumDepth = 256

  package let bytes: UnsafeBufferPointer<UInt8>
  package var index = 0
  package var depth = 0
  private var scratch: [UInt8] = []

  package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// Parses one JSON value filling all of `bytes` (surrounding whitespace allowed).
  public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> PropertyValue {
    let array = Array(bytes)
    let result = array.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONSyntaxError) -> PropertyValue in try parse(buffer) }
    }
    return try result.get()
  }

  /// Parses one JSON value filling all of `text`.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> PropertyValue {
    try parse(Array(text.utf8))
  }

  /// Parses the whole input as one value (surrounding whitespace allowed).
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> PropertyValue {
    var parser = JSONParser(bytes)
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  package func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: index, reason: reason) }

  package mutating func skipWhitespace() {
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      index += 1
    }
  }

  package mutating func parseValue() throws(JSONSyntaxError) -> PropertyValue {
    guard index < bytes.count else { throw error("unexpected end of line, a value was expected") }
    switch bytes[index] {
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "{"): return .object(try parseObject())
    case UInt8(ascii: "["): return .array(try parseArray())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected character \(Self.describe(bytes[index])), a value was expected")
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw error("unexpected end of line in a literal") }
    let start = word.utf8Start
    for offset in 0..<count where bytes[index + offset] != start[offset] {
      throw error("invalid literal, expected '\(word)'")
    }
    index += count
  }

  package mutating func parseObject() throws(JSONSyntaxError) -> Properties {
    depth += 1
    guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    defer { depth -= 1 }
    index += 1
    var properties = Properties()
    var seen: Set<String>?
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return properties
    }
    while true {
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of line inside an object") }
      guard bytes[index] == UInt8(ascii: "\"") else {
        throw error("unexpected character \(Self.describe(bytes[index])), an object key was expected")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("':' expected after object key \"\(key)\"")
      }
      index += 1
      skipWhitespace()
      let value = try parseValue()
      Self.insert(key, value, into: &properties, seen: &seen)
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of line inside an object") }
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: ",") { continue }
      if byte == UInt8(ascii: "}") { return properties }
      index -= 1
      throw error("unexpected character \(Self.describe(byte)), ',' or '}' expected")
    }
  }

  /// Appends a key, replacing the value of a repeated key in place.
  package static func insert(
    _ key: String, _ value: PropertyValue, into properties: inout Properties, seen: inout Set<String>?
  ) {
    if properties.count < 12 {
      if properties[key] != nil { properties[key] = value } else { properties.appendUnchecked(key, value) }
      return
    }
    if seen == nil { seen = Set(properties.keys) }
    if seen!.insert(key).inserted { properties.appendUnchecked(key, value) } else { properties[key] = value }
  }

  package mutating func parseArray() throws(JSONSyntaxError) -> [PropertyValue] {
    depth += 1
    guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    defer { depth -= 1 }
    index += 1
    var values: [PropertyValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return values
    }
    while true {
      skipWhitespace()
      values.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of line inside an array") }
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: ",") { continue }
      if byte == UInt8(ascii: "]") { return values }
      index -= 1
      throw error("unexpected character \(Self.describe(byte)), ',' or ']' expected")
    }
  }

  /// Parses a string starting at its opening quote.
  package mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1
    let start = index
    var high: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if high & 0x80 != 0, let bad = UTF8Check.firstInvalid(slice) {
          index = start + bad
          throw error("invalid UTF-8 in a string")
        }
        index += 1
        return String(decoding: slice, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
      if byte < 0x20 { throw error("unescaped control character \(Self.describe(byte)) in a string") }
      high |= byte
      index += 1
    }
    throw error("unterminated string")
  }

  private mutating func parseEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        let valid = scratch.withUnsafeBufferPointer { UTF8Check.firstInvalid($0) == nil }
        guard valid else {
          index = start
          throw error("invalid UTF-8 in a string")
        }
        return String(decoding: scratch, as: UTF8.self)
      }
      if byte < 0x20 { throw error("unescaped control character \(Self.describe(byte)) in a string") }
      if byte != UInt8(ascii: "\\") {
        scratch.append(byte)
        index += 1
        continue
      }
      index += 1
      guard index < bytes.count else { break }
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
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
          if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          {
            let save = index
            index += 2
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) {
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
              scalar = 0xFFFD
              index = save
            }
          } else {
            scalar = 0xFFFD
          }
        } else if (0xDC00...0xDFFF).contains(scalar) {
          scalar = 0xFFFD
        }
        appendUTF8(scalar)
      default:
        index -= 1
        throw error("invalid escape '\\\(Self.describe(escape))' in a string")
      }
    }
    throw error("unterminated string")
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("unexpected end of line in a \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
      default: throw error("invalid hex digit \(Self.describe(byte)) in a \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80: scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  package mutating func parseNumber() throws(JSONSyntaxError) -> PropertyValue {
    let start = index
    var negative = false
    if bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else {
      throw error("a digit was expected in a number")
    }
    var magnitude: UInt64 = 0
    var overflow = false
    if bytes[index] == 48 {
      index += 1
      if index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        throw error("leading zero in a number")
      }
    } else {
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (plus, o2) = times.addingReportingOverflow(UInt64(bytes[index] - 48))
        overflow = overflow || o1 || o2
        magnitude = plus
        index += 1
      }
    }
    var integral = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      integral = false
      index += 1
      let digits = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
      guard index > digits else { throw error("a digit was expected after '.' in a number") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      integral = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      let digits = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
      guard index > digits else { throw error("a digit was expected in a number's exponent") }
    }
    if integral && !overflow {
      if negative {
        if magnitude <= UInt64(Int.max) + 1 {
          return .int(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude))
        }
      } else if magnitude <= UInt64(Int.max) {
        return .int(Int(magnitude))
      }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text) else { throw JSONSyntaxError(offset: start, reason: "invalid number") }
    guard value.isFinite else { throw JSONSyntaxError(offset: start, reason: "number out of range") }
    return .double(value)
  }

  package static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "0x" + String(byte, radix: 16, uppercase: true)
  }
}

/// UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
package enum UTF8Check {
  /// The offset of the first byte of an invalid sequence, or `nil` when all is valid.
  package static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        upper = 0x9F
      case 0xF0:
        length = 4
        lower = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        upper = 0x8F
      default: return index
      }
      guard index + length <= count else { return index }
      let second = bytes[index + 1]
      guard second >= lower, second <= upper else { return index }
      for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 {
        return index
      }
      index += length
    }
    return nil
  }
}
