import AnalyticsHub
import TagscopeRecording

/// What decides a record's validation, read from its JSON line without decoding it: `kind`,
/// `name`, `properties`, `context.screen` and `outputs` hashed to 128 bits, plus `seq`.
///
/// Two records with the same key get the same violations (but their `seq`) and cover the same
/// items, so a long recording — where most records repeat an earlier one but for `seq`, `time`,
/// history and session — is validated at the speed of this scan. A record with a `source` (from
/// `tagscope listen`, whose provider rule counts run across records) has no key.
struct LineKey: Hashable {
  var low: UInt64
  var high: UInt64

  /// The key and `seq` of a record line, or `nil` when the line is anything else (a header, a drop
  /// marker, a record with a `source`, unusual JSON): such lines take the full decoding path.
  ///
  /// The scan checks the top-level structure, that `seq` is an integer, `time` a timestamp and
  /// `kind` and `name` strings; of the other values it only finds the extent. A record seen for
  /// the first time is decoded in full (a bad line is reported then); a later line with the same
  /// key but a malformed field validation does not read (`history`, `session`, `issues`…) is
  /// validated like the first rather than reported.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (key: LineKey, seq: UInt64)? {
    var scanner = KeyScanner(bytes: bytes)
    return scanner.record()
  }
}

private struct KeyScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var hash = KeyHasher()

  struct Fallback: Error {}

  mutating func record() -> (key: LineKey, seq: UInt64)? {
    do {
      var seq: UInt64?
      var sawTime = false
      var sawKind = false
      var sawName = false
      try expect(UInt8(ascii: "{"))
      try members { scanner, key throws(Fallback) in
        switch key {
        case .seq:
          guard seq == nil else { throw Fallback() }
          seq = try scanner.unsignedInteger()
        case .time:
          guard !sawTime else { throw Fallback() }
          sawTime = true
          let text = try scanner.plainString()
          guard ISO8601TimestampCheck.isTimestamp(text) else { throw Fallback() }
        case .kind, .name:
          if key == .kind { sawKind = true } else { sawName = true }
          let start = scanner.index
          _ = try scanner.plainString()
          scanner.hash.add(field: key.rawValue, scanner.bytes, start..<scanner.index)
        case .properties, .outputs:
          let start = scanner.index
          try scanner.skipExtent()
          scanner.hash.add(field: key.rawValue, scanner.bytes, start..<scanner.index)
        case .context:
          try scanner.context()
        case .source:
          if try !scanner.null() { throw Fallback() }
        case .screen, .other:
          try scanner.skipExtent()
        }
      }
      skipWhitespace()
      guard index == bytes.count, let seq, sawTime, sawKind, sawName else { return nil }
      return (hash.finish(), seq)
    } catch {
      return nil
    }
  }

  enum Key: UInt8 {
    case seq, time, kind, name, properties, context, outputs, source, screen, other
  }

  /// Calls `body` with each member's key; the body consumes the value.
  mutating func members(_ body: (inout KeyScanner, Key) throws(Fallback) -> Void) throws(Fallback) {
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      index += 1
      return
    }
    while true {
      skipWhitespace()
      let name = try plainString()
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      try body(&self, Self.key(name))
      skipWhitespace()
      guard index < bytes.count else { throw Fallback() }
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "}") { return }
      guard byte == UInt8(ascii: ",") else { throw Fallback() }
    }
  }

  static func key(_ name: UnsafeBufferPointer<UInt8>) -> Key {
    switch name.count {
    case 3: return equal(name, "seq") ? .seq : .other
    case 4:
      if equal(name, "time") { return .time }
      if equal(name, "kind") { return .kind }
      if equal(name, "name") { return .name }
      return .other
    case 6:
      if equal(name, "source") { return .source }
      if equal(name, "screen") { return .screen }
      return .other
    case 7:
      if equal(name, "context") { return .context }
      if equal(name, "outputs") { return .outputs }
      return .other
    case 10: return equal(name, "properties") ? .properties : .other
    default: return .other
    }
  }

  static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    let pointer = word.utf8Start
    for offset in 0..<bytes.count where bytes[offset] != pointer[offset] { return false }
    return true
  }

  /// `context`: only `screen` is part of the key.
  mutating func context() throws(Fallback) {
    if try null() {
      hash.add(field: Key.context.rawValue, bytes, index..<index)
      return
    }
    try expect(UInt8(ascii: "{"))
    var screen: Range<Int>?
    try members { scanner, key throws(Fallback) in
      let start = scanner.index
      try scanner.skipExtent()
      if key == .screen { screen = start..<scanner.index }
    }
    hash.add(field: Key.context.rawValue, bytes, screen ?? index..<index)
  }

  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func skipWhitespace() {
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
      index += 1
    }
  }

  mutating func expect(_ byte: UInt8) throws(Fallback) {
    guard index < bytes.count, bytes[index] == byte else { throw Fallback() }
    index += 1
  }

  mutating func null() throws(Fallback) -> Bool {
    guard peek == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  mutating func literal(_ word: StaticString) throws(Fallback) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      Self.equal(UnsafeBufferPointer(rebasing: bytes[index..<(index + count)]), word)
    else { throw Fallback() }
    index += count
  }

  /// A string without escapes (ASCII or valid UTF-8), quotes consumed; escapes fall back.
  mutating func plainString() throws(Fallback) -> UnsafeBufferPointer<UInt8> {
    try expect(UInt8(ascii: "\""))
    let start = index
    var high: UInt8 = 0
    skipPlainASCII()
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if high & 0x80 != 0, String(validating: slice, as: UTF8.self) == nil { throw Fallback() }
        index += 1
        return slice
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { throw Fallback() }
      high |= byte
      index += 1
    }
    throw Fallback()
  }

  /// Skips 8 bytes at a time while they are printable ASCII other than `"` and `\\`.
  mutating func skipPlainASCII() {
    guard let base = bytes.baseAddress else { return }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= bytes.count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let special =
        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word
      if special & highs != 0 { return }
      index += 8
    }
  }

  /// Moves past one value by its extent only: a string to its closing quote, an object or array
  /// to its closing bracket (strings inside skipped whole), a scalar to the next delimiter.
  ///
  /// Syntax inside is not checked, and need not be: the key covers these bytes exactly, so a
  /// record only reuses the result of an earlier record with the same bytes, which was decoded
  /// in full; a record seen for the first time is decoded in full.
  mutating func skipExtent() throws(Fallback) {
    guard let first = peek else { throw Fallback() }
    switch first {
    case UInt8(ascii: "\""):
      try skipStringExtent()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      try skipNestedExtent()
    default:
      let start = index
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte <= 0x20
        {
          break
        }
        index += 1
      }
      guard index > start else { throw Fallback() }
    }
  }

  /// An object's or array's extent: brackets counted outside strings, strings skipped to their
  /// closing quote (an escape skips the byte after it), 8 bytes at a time where nothing matters.
  mutating func skipNestedExtent() throws(Fallback) {
    guard let base = bytes.baseAddress else { throw Fallback() }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let count = bytes.count
    var depth = 0
    var inString = false
    while true {
      if inString {
        while index + 8 <= count {
          let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          let quote = word ^ (ones &* 0x22)
          let backslash = word ^ (ones &* 0x5C)
          if (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0 { break }
          index += 8
        }
        guard index < count else { throw Fallback() }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          inString = false
          index += 1
        } else {
          index += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        continue
      }
      while index + 8 <= count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let folded = word | (ones &* 0x20)
        let quote = word ^ (ones &* 0x22)
        let open = folded ^ (ones &* 0x7B)
        let close = folded ^ (ones &* 0x7D)
        if (((quote &- ones) & ~quote) | ((open &- ones) & ~open) | ((close &- ones) & ~close)) & highs != 0 {
          break
        }
        index += 8
      }
      guard index < count else { throw Fallback() }
      switch bytes[index] {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        guard depth <= 64 else { throw Fallback() }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 {
          index += 1
          return
        }
      default:
        break
      }
      index += 1
    }
  }

  /// A string's extent: to the closing quote, each escape skipping the byte after it.
  mutating func skipStringExtent() throws(Fallback) {
    try expect(UInt8(ascii: "\""))
    guard let base = bytes.baseAddress else { throw Fallback() }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while true {
      while index + 8 <= bytes.count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        if (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0 { break }
        index += 8
      }
      guard index < bytes.count else { throw Fallback() }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return
      }
      index += byte == UInt8(ascii: "\\") ? 2 : 1
    }
  }

  mutating func unsignedInteger() throws(Fallback) -> UInt64 {
    var value: UInt64 = 0
    let start = index
    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] - 48))
      guard !overflow, !carry else { throw Fallback() }
      value = sum
      index += 1
    }
    guard index > start, !(bytes[start] == 48 && index - start > 1) else { throw Fallback() }
    if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
      throw Fallback()
    }
    return value
  }
}

/// Whether bytes are a recording timestamp, without building a `Date`.
private enum ISO8601TimestampCheck {
  static func isTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    ISO8601Timestamp.date(fromUTF8: bytes) != nil
  }
}

/// Two 64-bit multiply-rotate lanes over 8-byte words, finalised with a 64-bit avalanche: 128
/// bits, so distinct keys do not meet in practice (recordings are not adversarial; records from
/// the network, which carry a `source`, never use keys).
private struct KeyHasher {
  var low: UInt64 = 0x243F_6A88_85A3_08D3
  var high: UInt64 = 0x1319_8A2E_0370_7344

  mutating func add(field: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    mix(UInt64(field) << 56 | UInt64(range.count))
    guard let base = bytes.baseAddress, !range.isEmpty else { return }
    let raw = UnsafeRawPointer(base + range.lowerBound)
    let count = range.count
    var offset = 0
    while offset + 8 <= count {
      mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      tail |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << shift
      shift += 8
      offset += 1
    }
    mix(tail)
  }

  mutating func mix(_ word: UInt64) {
    low = ((low ^ (word &* 0x87C3_7B91_1142_53D5)).rotated(31)) &* 0x4CF5_AD43_2745_937F
    high = ((high ^ (word &* 0x9E37_79B9_7F4A_7C15)).rotated(27)) &* 0xC2B2_AE3D_27D4_EB4F &+ low
  }

  func finish() -> LineKey {
    LineKey(low: Self.avalanche(low ^ high.rotated(17)), high: Self.avalanche(high &+ low))
  }

  static func avalanche(_ value: UInt64) -> UInt64 {
    var mixed = value
    mixed ^= mixed >> 33
    mixed &*= 0xFF51_AFD7_ED55_8CCD
    mixed ^= mixed >> 33
    mixed &*= 0xC4CE_B9FE_1A85_EC53
    mixed ^= mixed >> 33
    return mixed
  }
}

extension UInt64 {
  fileprivate func rotated(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
