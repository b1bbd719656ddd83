import AnalyticsHub
import TagscopeRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the index fields of a record line straight from its bytes, validating the whole line
/// (JSON syntax, UTF-8, and the type of every field the full decoder checks) without building the
/// record: the timeline's fast path for indexing a recording.
///
/// It accepts only the common case, a well-formed record line; anything else (a header, a drop
/// marker, a repeated field, an error, an escaped key) returns `false` and the caller decodes the
/// line with ``RecordLineDecoder``, which is authoritative. So a line the scanner accepts is exactly
/// a line the decoder reads as a record, with the same index fields (tested against it).
struct IndexScanner {
  private var bytes: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
  private var index = 0
  private var depth = 0
  /// The fields of the last line scanned successfully.
  var fields = IndexFields()

  /// Gives up on the fast path.
  typealias Fallback = FastPathFallback

  /// Scans one line; `true` when it is a record whose fields are now in ``fields``.
  mutating func scan(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes = line
    index = 0
    depth = 0
    fields.outputs.removeAll(keepingCapacity: true)
    fields.source = nil
    fields.hasRuleViolations = false
    fields.hasIssues = false
    fields.hasContext = false
    fields.consentScope = nil
    fields.consentGranted = nil
    do {
      try scanRecord()
      return true
    } catch { return false }
  }

  // MARK: Record structure

  private static let seqBit = 1
  private static let timeBit = 2
  private static let kindBit = 4
  private static let nameBit = 8

  private mutating func scanRecord() throws(Fallback) {
    skipWhitespace()
    try expect(UInt8(ascii: "{"))
    var seen = SeenFields()
    try objectMembers { (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      switch key.count {
      case 3 where Self.equal(key, "seq"):
        try seen.claim(1)
        guard case .int(let number) = try scanner.number(), number >= 0 else { throw Fallback() }
        scanner.fields.seq = UInt64(number)
      case 4 where Self.equal(key, "time"):
        try seen.claim(2)
        let text = try scanner.rawString()
        guard let milliseconds = ISO8601Timestamp.milliseconds(fromUTF8: text) else { throw Fallback() }
        scanner.fields.time = milliseconds
      case 4 where Self.equal(key, "kind"):
        try seen.claim(4)
        scanner.fields.kind = try scanner.string()
      case 4 where Self.equal(key, "name"):
        try seen.claim(8)
        scanner.fields.name = try scanner.string()
      case 9 where Self.equal(key, "eventType"):
        try seen.claim(16)
        if try !scanner.null() { try scanner.skipString() }
      case 10 where Self.equal(key, "properties"):
        try seen.claim(32)
        if try !scanner.null() { try scanner.scanProperties() }
      case 7 where Self.equal(key, "context"):
        try seen.claim(64)
        if try !scanner.null() { try scanner.scanContext() }
      case 7 where Self.equal(key, "outputs"):
        try seen.claim(128)
        if try !scanner.null() { try scanner.scanOutputs() }
      case 6 where Self.equal(key, "issues"):
        try seen.claim(256)
        if try !scanner.null() { try scanner.scanIssues() }
      case 6 where Self.equal(key, "source"):
        try seen.claim(512)
        scanner.fields.source = try scanner.null() ? nil : try scanner.string()
      case 3 where Self.equal(key, "raw"):
        try seen.claim(1024)
        if try !scanner.null() { try scanner.skipString() }
      case 6 where Self.equal(key, "format"): throw Fallback()
      default: try scanner.skipValue()
      }
    }
    guard seen.contains(15) else { throw Fallback() }
    skipWhitespace()
    guard index == bytes.count else { throw Fallback() }
  }

  /// Properties: any object; remembers `scope` (string) and `granted` (boolean) for consent.
  private mutating func scanProperties() throws(Fallback) {
    try expect(UInt8(ascii: "{"))
    try objectMembers { (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      if key.count == 5 && Self.equal(key, "scope") {
        if scanner.peek == UInt8(ascii: "\"") {
          scanner.fields.consentScope = try scanner.string()
        } else {
          scanner.fields.consentScope = nil
          try scanner.skipValue()
        }
      } else if key.count == 7 && Self.equal(key, "granted") {
        switch scanner.peek {
        case UInt8(ascii: "t"):
          try scanner.literal("true")
          scanner.fields.consentGranted = true
        case UInt8(ascii: "f"):
          try scanner.literal("false")
          scanner.fields.consentGranted = false
        default:
          scanner.fields.consentGranted = nil
          try scanner.skipValue()
        }
      } else {
        try scanner.skipValue()
      }
    }
  }

  private mutating func scanContext() throws(Fallback) {
    try expect(UInt8(ascii: "{"))
    var seen = SeenFields()
    try objectMembers { (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      switch key.count {
      case 6 where Self.equal(key, "screen"):
        try seen.claim(1)
        if try !scanner.null() {
          try scanner.skipString()
          scanner.fields.hasContext = true
        }
      case 7 where Self.equal(key, "history"):
        try seen.claim(2)
        if try scanner.stringArray() > 0 { scanner.fields.hasContext = true }
      case 7 where Self.equal(key, "session"):
        try seen.claim(4)
        if try !scanner.null() {
          try scanner.scanSession()
          scanner.fields.hasContext = true
        }
      case 11 where Self.equal(key, "timedEvents"):
        try seen.claim(8)
        if try scanner.stringArray() > 0 { scanner.fields.hasContext = true }
      default:
        try scanner.skipValue()
        scanner.fields.hasContext = true
      }
    }
  }

  private mutating func scanSession() throws(Fallback) {
    try expect(UInt8(ascii: "{"))
    var seen = SeenFields()
    try objectMembers { (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      switch key.count {
      case 2 where Self.equal(key, "id"):
        try seen.claim(1)
        try scanner.skipString()
      case 5 where Self.equal(key, "state"):
        try seen.claim(2)
        try scanner.skipString()
      case 4 where Self.equal(key, "user"):
        try seen.claim(4)
        if try !scanner.null() { try scanner.skipString() }
      case 10 where Self.equal(key, "properties"):
        try seen.claim(8)
        if try !scanner.null() { try scanner.skipObject() }
      default: try scanner.skipValue()
      }
    }
    guard seen.contains(3) else { throw Fallback() }
  }

  private mutating func scanOutputs() throws(Fallback) {
    try expect(UInt8(ascii: "["))
    try arrayElements { (scanner: inout IndexScanner) throws(Fallback) in try scanner.scanOutput() }
  }

  private mutating func scanOutput() throws(Fallback) {
    try expect(UInt8(ascii: "{"))
    var seen = SeenFields()
    var provider = ""
    var status = IndexFields.Status.other
    var disabled = false
    try objectMembers { (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      switch key.count {
      case 8 where Self.equal(key, "provider"):
        try seen.claim(1)
        provider = try scanner.string()
      case 6 where Self.equal(key, "status"):
        try seen.claim(2)
        let word = try scanner.rawString()
        if Self.equal(word, "sent") {
          status = .sent
        } else if Self.equal(word, "dropped") {
          status = .dropped
        } else if Self.equal(word, "blocked") {
          status = .blocked
        } else if Self.equal(word, "failed") {
          status = .failed
        }
      case 6 where Self.equal(key, "reason"):
        try seen.claim(4)
        if try !scanner.null() { disabled = try scanner.string() == "disabled" }
      case 5 where Self.equal(key, "calls"):
        try seen.claim(8)
        if try !scanner.null() {
          try scanner.expect(UInt8(ascii: "["))
          try scanner.arrayElements { (scanner: inout IndexScanner) throws(Fallback) in try scanner.scanCall()
          }
        }
      case 10 where Self.equal(key, "violations"):
        try seen.claim(16)
        if try !scanner.null() {
          try scanner.expect(UInt8(ascii: "["))
          let count = try scanner.arrayElements { (scanner: inout IndexScanner) throws(Fallback) in
            try scanner.scanViolation()
          }
          if count > 0 { scanner.fields.hasRuleViolations = true }
        }
      default: try scanner.skipValue()
      }
    }
    guard seen.contains(3) else { throw Fallback() }
    fields.outputs.append(IndexFields.Output(provider: provider, status: status, disabled: disabled))
  }

  private mutating func scanCall() throws(Fallback) {
    try expect(UInt8(ascii: "{"))
    var seen = SeenFields()
    try objectMembers { (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      switch key.count {
      case 6 where Self.equal(key, "method"):
        try seen.claim(1)
        try scanner.skipString()
      case 4 where Self.equal(key, "name"):
        try seen.claim(2)
        if try !scanner.null() { try scanner.skipString() }
      case 10 where Self.equal(key, "parameters"):
        try seen.claim(4)
        if try !scanner.null() { try scanner.skipObject() }
      default: try scanner.skipValue()
      }
    }
    guard seen.contains(1) else { throw Fallback() }
  }

  private mutating func scanViolation() throws(Fallback) {
    try expect(UInt8(ascii: "{"))
    var seen = SeenFields()
    try objectMembers { (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      switch key.count {
      case 4 where Self.equal(key, "rule"):
        try seen.claim(1)
        try scanner.skipString()
      case 7 where Self.equal(key, "message"):
        try seen.claim(2)
        try scanner.skipString()
      case 11 where Self.equal(key, "consequence"):
        try seen.claim(4)
        try scanner.skipString()
      case 9 where Self.equal(key, "callIndex"):
        try seen.claim(8)
        try scanner.optionalInt()
      case 9 where Self.equal(key, "errorCode"):
        try seen.claim(16)
        try scanner.optionalInt()
      default: try scanner.skipValue()
      }
    }
    guard seen.contains(7) else { throw Fallback() }
  }

  private mutating func scanIssues() throws(Fallback) {
    try expect(UInt8(ascii: "["))
    let count = try arrayElements { (scanner: inout IndexScanner) throws(Fallback) in
      try scanner.expect(UInt8(ascii: "{"))
      var seen = SeenFields()
      try scanner.objectMembers {
        (scanner: inout IndexScanner, key: UnsafeBufferPointer<UInt8>) throws(Fallback) in
        if key.count == 4 && Self.equal(key, "code") || key.count == 7 && Self.equal(key, "message") {
          let bit = key.count == 4 ? 1 : 2
          try seen.claim(bit)
          try scanner.skipString()
        } else {
          try scanner.skipValue()
        }
      }
      guard seen.contains(3) else { throw Fallback() }
    }
    if count > 0 { fields.hasIssues = true }
  }

  // MARK: Containers

  /// Calls `member` for each key of an object whose `{` was consumed; `member` reads the value.
  private mutating func objectMembers(
    _ member: (inout IndexScanner, UnsafeBufferPointer<UInt8>) throws(Fallback) -> Void
  ) throws(Fallback) {
    depth += 1
    guard depth <= JSONParser.maximumDepth else { throw Fallback() }
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return
    }
    while true {
      skipWhitespace()
      let keyStart = index
      if let key = try plainString() {
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
        try member(&self, key)
      } else {
        // A key with escapes: decode it, then match it like any other.
        index = keyStart
        var key = try string()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
        do { try key.withUTF8 { try member(&self, $0) } } catch { throw Fallback() }
      }
      skipWhitespace()
      guard index < bytes.count else { throw Fallback() }
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: ",") { continue }
      guard byte == UInt8(ascii: "}") else { throw Fallback() }
      depth -= 1
      return
    }
  }

  /// Calls `element` for each element of an array whose `[` was consumed; returns the count.
  @discardableResult
  private mutating func arrayElements(_ element: (inout IndexScanner) throws(Fallback) -> Void)
    throws(Fallback)
    -> Int
  {
    depth += 1
    guard depth <= JSONParser.maximumDepth else { throw Fallback() }
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return 0
    }
    var count = 0
    while true {
      skipWhitespace()
      try element(&self)
      count += 1
      skipWhitespace()
      guard index < bytes.count else { throw Fallback() }
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: ",") { continue }
      guard byte == UInt8(ascii: "]") else { throw Fallback() }
      depth -= 1
      return count
    }
  }

  /// An array of strings or null; returns its count.
  private mutating func stringArray() throws(Fallback) -> Int {
    if try null() { return 0 }
    try expect(UInt8(ascii: "["))
    return try arrayElements { (scanner: inout IndexScanner) throws(Fallback) in try scanner.skipString() }
  }

  // MARK: Values

  private var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      index += 1
    }
  }

  private mutating func expect(_ byte: UInt8) throws(Fallback) {
    guard index < bytes.count, bytes[index] == byte else { throw Fallback() }
    index += 1
  }

  /// Consumes `null` if it is next.
  private mutating func null() throws(Fallback) -> Bool {
    guard peek == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  private mutating func literal(_ word: StaticString) throws(Fallback) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw Fallback() }
    let start = word.utf8Start
    for offset in 0..<count where bytes[index + offset] != start[offset] { throw Fallback() }
    index += count
  }

  private mutating func skipValue() throws(Fallback) {
    switch peek {
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "{"): try skipObject()
    case UInt8(ascii: "["):
      index += 1
      try arrayElements { (scanner: inout IndexScanner) throws(Fallback) in try scanner.skipValue() }
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
    default: throw Fallback()
    }
  }

  private mutating func skipObject() throws(Fallback) {
    try expect(UInt8(ascii: "{"))
    try objectMembers { (scanner: inout IndexScanner, _: UnsafeBufferPointer<UInt8>) throws(Fallback) in
      try scanner.skipValue()
    }
  }

  /// The bytes of a string without escapes (valid UTF-8), quotes consumed; `nil` (position
  /// undefined) when it has escapes.
  private mutating func plainString() throws(Fallback) -> UnsafeBufferPointer<UInt8>? {
    try expect(UInt8(ascii: "\""))
    let start = index
    var high: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if high & 0x80 != 0, UTF8Check.firstInvalid(slice) != nil { throw Fallback() }
        index += 1
        return slice
      }
      if byte == UInt8(ascii: "\\") { return nil }
      if byte < 0x20 { throw Fallback() }
      high |= byte
      index += 1
    }
    throw Fallback()
  }

  /// The bytes of a string without escapes (valid UTF-8), quotes consumed. Escapes fall back.
  private mutating func rawString() throws(Fallback) -> UnsafeBufferPointer<UInt8> {
    try expect(UInt8(ascii: "\""))
    let start = index
    var high: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if high & 0x80 != 0, UTF8Check.firstInvalid(slice) != nil { throw Fallback() }
        index += 1
        return slice
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { throw Fallback() }
      high |= byte
      index += 1
    }
    throw Fallback()
  }

  /// A string value, escapes decoded.
  private mutating func string() throws(Fallback) -> String {
    guard peek == UInt8(ascii: "\"") else { throw Fallback() }
    var parser = JSONParser(bytes)
    parser.index = index
    do {
      let text = try parser.parseString()
      index = parser.index
      return text
    } catch { throw Fallback() }
  }

  /// Validates a string value (escapes included) without building it.
  private mutating func skipString() throws(Fallback) {
    try expect(UInt8(ascii: "\""))
    var segment = index
    var high: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        if high & 0x80 != 0,
          UTF8Check.firstInvalid(UnsafeBufferPointer(rebasing: bytes[segment..<index])) != nil
        {
          throw Fallback()
        }
        high = 0
        index += 1
        if byte == UInt8(ascii: "\"") { return }
        guard index < bytes.count else { throw Fallback() }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          guard index + 5 <= bytes.count else { throw Fallback() }
          for offset in 1...4 where !Self.isHex(bytes[index + offset]) { throw Fallback() }
          index += 5
        default: throw Fallback()
        }
        segment = index
        continue
      }
      if byte < 0x20 { throw Fallback() }
      high |= byte
      index += 1
    }
    throw Fallback()
  }

  private mutating func number() throws(Fallback) -> PropertyValueNumber {
    var parser = JSONParser(bytes)
    parser.index = index
    do {
      let value = try parser.parseNumber()
      index = parser.index
      if case .int(let number) = value { return .int(number) }
      return .double
    } catch { throw Fallback() }
  }

  private mutating func optionalInt() throws(Fallback) {
    if try null() { return }
    guard case .int = try number() else { throw Fallback() }
  }

  enum PropertyValueNumber {
    case int(Int)
    case double
  }

  private static func isHex(_ byte: UInt8) -> Bool {
    (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
  }

  private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    return memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0
  }
}
