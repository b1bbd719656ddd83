import AnalyticsHub

/// Why some bytes are not valid JSON, and where (byte offset from the start of the line).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Byte offset of the problem in the line.
  public var offset: Int
  /// What is wrong, in plain words.
  public var reason: String

  @inlinable public var description: String { "\(reason) at byte \(offset + 1)" }

  /// An error at byte `offset`.
  package init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }
}

/// The one JSON lexer: a cursor over the UTF-8 bytes of one line (or one document) that reads
/// tokens, scans strings and numbers, and skips whole values it is not asked for — validating them
/// (syntax, UTF-8, nesting) without building anything. The tree parser (`JSONParser`), the record
/// decoder (`RecordDecoder`), both in TagscopeRecording, and the plan importer's JSON reader are all
/// written on top of it, so every reader of JSON accepts and rejects exactly the same bytes with the
/// same messages.
///
/// Strict RFC 8259. Nesting deeper than ``depthLimit`` is an error, never a stack overflow.
package struct JSONCursor {
  /// The deepest nesting of arrays and objects accepted by default.
  package static let maximumDepth = 256

  package let bytes: UnsafeBufferPointer<UInt8>
  /// The position of the next byte to read.
  package var index = 0
  /// Arrays and objects open at ``index``.
  package var depth = 0
  /// The deepest nesting of arrays and objects this cursor accepts.
  package let depthLimit: Int
  /// Decoded bytes of the last string with escapes.
  @usableFromInline var scratch: [UInt8] = []

  /// A cursor at the start of `bytes`, accepting nesting up to `depthLimit` levels.
  @inlinable package init(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int = JSONCursor.maximumDepth) {
    self.bytes = bytes
    self.depthLimit = depthLimit
  }

  @inlinable package func error(_ reason: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: index, reason: reason)
  }

  /// The next byte, or 0 at the end.
  @inline(__always)
  @inlinable package var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

  @inlinable package var isAtEnd: Bool { index >= bytes.count }

  @inline(__always)
  @inlinable package mutating func skipWhitespace() {
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      index += 1
    }
  }

  /// Consumes `null` if it is next.
  @inline(__always)
  @inlinable package mutating func null() throws(JSONSyntaxError) -> Bool {
    guard peek == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  @inlinable package mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw error("unexpected end of line in a literal") }
    let start = word.utf8Start
    for offset in 0..<count where bytes[index + offset] != start[offset] {
      throw error("invalid literal, expected '\(word)'")
    }
    index += count
  }

  // MARK: Containers

  /// Consumes `{` or `[` and counts one level of nesting.
  @inline(__always)
  @inlinable package mutating func open() throws(JSONSyntaxError) {
    depth += 1
    guard depth <= depthLimit else { throw error("nesting deeper than \(depthLimit) levels") }
    index += 1
  }

  /// The next key of an object whose `{` was consumed by ``open()``, its `:` consumed too; `nil`
  /// after the closing `}`. `first` is `true` for the first call on an object. The key's bytes are
  /// valid until the next string is read.
  @inline(__always)
  @inlinable package mutating func nextKey(first: Bool) throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8>?
  {
    guard try nextMember(first: first) else { return nil }
    return try memberKey()
  }

  /// Whether an object whose `{` was consumed by ``open()`` has another member (then positioned on
  /// its key's opening quote); `false` after the closing `}`. ``nextKey(first:)`` in two steps.
  @inline(__always)
  @inlinable package mutating func nextMember(first: Bool) throws(JSONSyntaxError) -> Bool {
    skipWhitespace()
    if first {
      if peek == UInt8(ascii: "}") {
        index += 1
        depth -= 1
        return false
      }
    } else {
      guard index < bytes.count else { throw error("unexpected end of line inside an object") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "}") {
        index += 1
        depth -= 1
        return false
      }
      guard byte == UInt8(ascii: ",") else {
        throw error("unexpected character \(Self.describe(byte)), ',' or '}' expected")
      }
      index += 1
      skipWhitespace()
    }
    guard index < bytes.count else { throw error("unexpected end of line inside an object") }
    guard bytes[index] == UInt8(ascii: "\"") else {
      throw error("unexpected character \(Self.describe(bytes[index])), an object key was expected")
    }
    return true
  }

  /// The key at the cursor (after ``nextMember(first:)``), its `:` consumed; its bytes are valid
  /// until the next string is read.
  @inline(__always)
  @inlinable package mutating func memberKey() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8> {
    let key = try stringBytes()
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
      throw error("':' expected after object key \"\(String(decoding: key, as: UTF8.self))\"")
    }
    index += 1
    skipWhitespace()
    return key
  }

  /// Whether an array whose `[` was consumed by ``open()`` has another element (then positioned on
  /// it); `false` after the closing `]`.
  @inline(__always)
  @inlinable package mutating func nextElement(first: Bool) throws(JSONSyntaxError) -> Bool {
    skipWhitespace()
    if first {
      if peek == UInt8(ascii: "]") {
        index += 1
        depth -= 1
        return false
      }
    } else {
      guard index < bytes.count else { throw error("unexpected end of line inside an array") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "]") {
        index += 1
        depth -= 1
        return false
      }
      guard byte == UInt8(ascii: ",") else {
        throw error("unexpected character \(Self.describe(byte)), ',' or ']' expected")
      }
      index += 1
    }
    skipWhitespace()
    return true
  }

  // MARK: Skipping

  /// Moves past one value, checking it as strictly as parsing would, building nothing.
  @inlinable package mutating func skipValue() throws(JSONSyntaxError) {
    guard index < bytes.count else { throw valueExpected() }
    switch bytes[index] {
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "{"):
      try open()
      var first = true
      while try nextKey(first: first) != nil {
        first = false
        try skipValue()
      }
    case UInt8(ascii: "["):
      try open()
      var first = true
      while try nextElement(first: first) {
        first = false
        try skipValue()
      }
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
    default: throw valueExpected()
    }
  }

  /// The error for the cursor being where no value starts (or at the end).
  @inlinable package func valueExpected() -> JSONSyntaxError {
    guard index < bytes.count else { return error("unexpected end of line, a value was expected") }
    return error("unexpected character \(Self.describe(bytes[index])), a value was expected")
  }

  /// Throws unless only whitespace is left.
  @inlinable package mutating func expectEnd() throws(JSONSyntaxError) {
    skipWhitespace()
    guard index == bytes.count else { throw error("unexpected text after the JSON value") }
  }

  // MARK: Strings

  /// Moves to the first byte at or after the cursor that a string scan must look at — `"`, `\`,
  /// a control character or a byte of a multi-byte character — eight bytes at a time (the lowest
  /// flagged byte of a word is exact, whatever borrows flag above it); at most 7 bytes before the
  /// end it stops and the caller's byte loop finishes.
  @inline(__always)
  @inlinable mutating func skipPlainASCII() {
    guard let base = bytes.baseAddress else { return }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= bytes.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let special =
        (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word)
        & highs
      if special != 0 {
        index += special.trailingZeroBitCount >> 3
        return
      }
      index += 8
    }
  }

  /// The bytes of a string starting at its opening quote, escapes decoded (into a scratch buffer
  /// valid until the next string is read), checked for UTF-8.
  @inlinable package mutating func stringBytes() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8> {
    index += 1
    let start = index
    var high: UInt8 = 0
    while true {
      skipPlainASCII()
      guard index < bytes.count else { break }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if high & 0x80 != 0, let bad = UTF8Check.firstInvalid(slice) {
          index = start + bad
          throw error("invalid UTF-8 in a string")
        }
        index += 1
        return slice
      }
      if byte == UInt8(ascii: "\\") {
        try decodeEscapedString(from: start)
        return scratch.withUnsafeBufferPointer { $0 }
      }
      if byte < 0x20 { throw error("unescaped control character \(Self.describe(byte)) in a string") }
      high |= byte
      index += 1
    }
    throw error("unterminated string")
  }

  /// A string starting at its opening quote.
  @inlinable package mutating func string() throws(JSONSyntaxError) -> String {
    String(decoding: try stringBytes(), as: UTF8.self)
  }

  /// Checks a string starting at its opening quote without decoding it.
  @inlinable package mutating func skipString() throws(JSONSyntaxError) {
    index += 1
    var segment = index
    var high: UInt8 = 0
    while true {
      skipPlainASCII()
      guard index < bytes.count else { throw error("unterminated string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        if high & 0x80 != 0,
          let bad = UTF8Check.firstInvalid(UnsafeBufferPointer(rebasing: bytes[segment..<index]))
        {
          index = segment + bad
          throw error("invalid UTF-8 in a string")
        }
        high = 0
        index += 1
        if byte == UInt8(ascii: "\"") { return }
        try skipEscape()
        segment = index
        continue
      }
      if byte < 0x20 { throw error("unescaped control character \(Self.describe(byte)) in a string") }
      high |= byte
      index += 1
    }
  }

  /// Checks the escape after a `\` (consumed).
  @inlinable mutating func skipEscape() throws(JSONSyntaxError) {
    guard index < bytes.count else { throw error("unterminated string") }
    let escape = bytes[index]
    index += 1
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return
    case UInt8(ascii: "u"): _ = try hex4()
    default:
      index -= 1
      throw error("invalid escape '\\\(Self.describe(escape))' in a string")
    }
  }

  @inlinable mutating func decodeEscapedString(from start: Int) throws(JSONSyntaxError) {
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
        return
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
      case UInt8(ascii: "u"): appendUTF8(try unicodeEscape())
      default:
        index -= 1
        throw error("invalid escape '\\\(Self.describe(escape))' in a string")
      }
    }
    throw error("unterminated string")
  }

  /// The scalar of a `\u` escape (its `\u` consumed), joining a surrogate pair; a lone surrogate
  /// is U+FFFD.
  @inlinable mutating func unicodeEscape() throws(JSONSyntaxError) -> UInt32 {
    let scalar = try hex4()
    if (0xDC00...0xDFFF).contains(scalar) { return 0xFFFD }
    guard (0xD800...0xDBFF).contains(scalar) else { return scalar }
    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
    else { return 0xFFFD }
    let save = index
    index += 2
    let low = try hex4()
    guard (0xDC00...0xDFFF).contains(low) else {
      index = save
      return 0xFFFD
    }
    return 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
  }

  @inlinable mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
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

  @inlinable mutating func appendUTF8(_ scalar: UInt32) {
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

  // MARK: Numbers

  /// A JSON number: `.int` when it is an integer that fits in `Int`, `.largeInteger` (its digits)
  /// for any other integer, else `.double`.
  @inlinable package mutating func number() throws(JSONSyntaxError) -> JSONNumber {
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
    // An integer past Int's range keeps its digits: written back unchanged, compared exactly.
    if integral, let large = LargeInteger(text) { return .largeInteger(large) }
    guard let value = Double(text) else { throw JSONSyntaxError(offset: start, reason: "invalid number") }
    guard value.isFinite else { throw JSONSyntaxError(offset: start, reason: "number out of range") }
    return .double(value)
  }

  @inlinable package static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "0x" + String(byte, radix: 16, uppercase: true)
  }
}

/// A number as the lexer reads it.
package enum JSONNumber: Equatable {
  case int(Int)
  /// An integer outside `Int`'s range, as its digits.
  case largeInteger(LargeInteger)
  case double(Double)
}

/// UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
package enum UTF8Check {
  /// The offset of the first byte of an invalid sequence, or `nil` when all is valid.
  @inlinable package static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
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
