import TaggingPlan

/// A JSON parser (RFC 8259) that keeps every value's line and column: the fallback for valid
/// JSON the YAML parser refuses (escaped surrogate pairs, keys over 1024 characters). Linear in
/// its input, bounded in depth.
struct PositionedJSONParser {
  /// How deep arrays and objects may nest.
  static let depthLimit = 512

  /// Where and why the text is not JSON.
  struct Failure: Error {
    var location: SourceLocation
    var message: String
  }

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var column = 1

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// The document's root value.
  static func parse(_ text: String) throws(Failure) -> SourceNode {
    var parser = PositionedJSONParser(text)
    if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipSpace()
    let root = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == parser.bytes.count else {
      throw parser.failure("unexpected text after the JSON value")
    }
    return root
  }

  private var here: SourceLocation { SourceLocation(line: line, column: column) }

  private func failure(_ message: String) -> Failure { Failure(location: here, message: message) }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// Moves past one byte, counting lines and (Unicode scalar) columns.
  private mutating func advance() {
    let byte = bytes[index]
    index += 1
    if byte == 0x0A {
      line += 1
      column = 1
    } else if byte & 0xC0 != 0x80 {
      column += 1
    }
  }

  private mutating func skipSpace() {
    while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
    guard current == byte else { throw failure("expected \(what)") }
    advance()
  }

  private mutating func value(depth: Int) throws(Failure) -> SourceNode {
    let start = here
    switch current {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return SourceNode(.string(try string()), at: start)
    case UInt8(ascii: "t"):
      try literal("true")
      return SourceNode(.bool(true), at: start)
    case UInt8(ascii: "f"):
      try literal("false")
      return SourceNode(.bool(false), at: start)
    case UInt8(ascii: "n"):
      try literal("null")
      return SourceNode(.null, at: start)
    case let byte? where byte == UInt8(ascii: "-") || (48...57).contains(byte):
      return SourceNode(.number(try number()), at: start)
    case nil: throw failure("unexpected end of the document, expected a value")
    default: throw failure("expected a value (an object, an array, a string, a number, true, false or null)")
    }
  }

  private mutating func literal(_ word: String) throws(Failure) {
    let start = here
    for byte in word.utf8 {
      guard current == byte else { throw Failure(location: start, message: "expected \(word)") }
      advance()
    }
  }

  private mutating func object(depth: Int) throws(Failure) -> SourceNode {
    let start = here
    guard depth <= Self.depthLimit else { throw failure("nested deeper than \(Self.depthLimit) levels") }
    advance()
    var members: [SourceNode.Member] = []
    var keys: Set<String> = []
    skipSpace()
    if current == UInt8(ascii: "}") {
      advance()
      return SourceNode(.object(members), at: start)
    }
    while true {
      skipSpace()
      let keyLocation = here
      guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
      let key = try string()
      guard keys.insert(key).inserted else {
        throw Failure(location: keyLocation, message: "duplicate key \"\(key)\"")
      }
      skipSpace()
      try expect(UInt8(ascii: ":"), "':' after the member name")
      skipSpace()
      members.append(SourceNode.Member(key: key, keyLocation: keyLocation, value: try value(depth: depth)))
      skipSpace()
      if current == UInt8(ascii: ",") {
        advance()
        continue
      }
      try expect(UInt8(ascii: "}"), "',' or '}' after an object member")
      return SourceNode(.object(members), at: start)
    }
  }

  private mutating func array(depth: Int) throws(Failure) -> SourceNode {
    let start = here
    guard depth <= Self.depthLimit else { throw failure("nested deeper than \(Self.depthLimit) levels") }
    advance()
    var elements: [SourceNode] = []
    skipSpace()
    if current == UInt8(ascii: "]") {
      advance()
      return SourceNode(.array(elements), at: start)
    }
    while true {
      skipSpace()
      elements.append(try value(depth: depth))
      skipSpace()
      if current == UInt8(ascii: ",") {
        advance()
        continue
      }
      try expect(UInt8(ascii: "]"), "',' or ']' after an array element")
      return SourceNode(.array(elements), at: start)
    }
  }

  private mutating func number() throws(Failure) -> Double {
    let start = index
    if current == UInt8(ascii: "-") { advance() }
    guard let first = current, (48...57).contains(first) else { throw failure("expected a digit") }
    advance()
    if first != 48 {
      while let byte = current, (48...57).contains(byte) { advance() }
    }
    if current == UInt8(ascii: ".") {
      advance()
      guard let byte = current, (48...57).contains(byte) else { throw failure("expected a digit after '.'") }
      while let byte = current, (48...57).contains(byte) { advance() }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      advance()
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
      guard let byte = current, (48...57).contains(byte) else {
        throw failure("expected a digit in the exponent")
      }
      while let byte = current, (48...57).contains(byte) { advance() }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let number = Double(text) else { throw failure("invalid number \(text)") }
    return number
  }

  private mutating func string() throws(Failure) -> String {
    advance()
    var scalars = String.UnicodeScalarView()
    var chunkStart = index
    func flush(_ parser: PositionedJSONParser, to end: Int) {
      scalars.append(
        contentsOf: String(decoding: parser.bytes[chunkStart..<end], as: UTF8.self).unicodeScalars)
    }
    while true {
      guard let byte = current else { throw failure("unterminated string") }
      if byte == UInt8(ascii: "\"") {
        flush(self, to: index)
        advance()
        return String(scalars)
      }
      if byte < 0x20 { throw failure("control character in a string (escape it)") }
      if byte != UInt8(ascii: "\\") {
        advance()
        continue
      }
      flush(self, to: index)
      advance()
      guard let escape = current else { throw failure("unterminated string") }
      advance()
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
      default: throw failure("invalid escape in a string")
      }
      chunkStart = index
    }
  }

  /// The scalar of `\uXXXX` (the `\u` read), joining a surrogate pair; a lone surrogate becomes
  /// U+FFFD.
  private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
    let high = try hex4()
    if (0xD800...0xDBFF).contains(high), current == UInt8(ascii: "\\"), index + 1 < bytes.count,
      bytes[index + 1] == UInt8(ascii: "u")
    {
      let save = (index, line, column)
      advance()
      advance()
      let low = try hex4()
      if (0xDC00...0xDFFF).contains(low) {
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
      }
      (index, line, column) = save
    }
    return Unicode.Scalar(high) ?? "\u{FFFD}"
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = Self.hexDigit(byte) else {
        throw failure("expected four hexadecimal digits after \\u")
      }
      value = value * 16 + digit
      advance()
    }
    return value
  }

  private static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 48...57: return UInt32(byte - 48)
    case 65...70: return UInt32(byte - 55)
    case 97...102: return UInt32(byte - 87)
    default: return nil
    }
  }
}
