#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a shareable copy of recording lines: each piece of personal data (``PIIScanner``) in a
/// value is replaced by `pii:KIND:HASH`, a salted hash of it (the same value gives the same hash
/// with the same salt, so records stay comparable), and every other byte is copied unchanged.
///
/// - A match inside a string is replaced in place (`"mail jo@example.com"` becomes
///   `"mail pii:email:…"`); strings stay strings.
/// - A number that is personal data (a card number, a phone number under a phone key, a precise
///   coordinate of a latitude/longitude pair in one object) becomes the string `"pii:KIND:HASH"`:
///   the record stays valid JSON and loadable, the value's type becomes string.
/// - A string's content is scanned with its JSON escapes decoded (`030\/12345678`, `jo\u0040…`, a
///   JSON object held in a string); a match replaces the whole escapes it was decoded from, and its
///   hash is that of the decoded value (the same as the value written without escapes).
/// - Keys are never replaced. The line is read with a small JSON scanner that never fails: on a
///   malformed line, the strings and numbers it finds are treated the same.
/// - A line that is not a JSON record is scanned as plain text, so no personal data passes
///   because it is outside a string: one that does not start with `{`, or one holding a byte
///   outside its strings that is no part of JSON (`{"email": jo@example.com}`). Each match is
///   replaced by `pii:KIND:HASH` (no quotes added) and the line is listed in
///   ``plainTextLines``.
public struct Redactor: Sendable {
  private let hasher: SaltedHash
  /// Values replaced so far, per kind (in the order of `PIIKind.allCases`).
  public private(set) var counts = [Int](repeating: 0, count: PIIKind.allCases.count)
  /// Bytes the detectors examined so far (the work done, linear in the input).
  public private(set) var steps = 0
  /// Key contexts by key, a direct-mapped cache of 1,024 slots (keys repeat on every line): the
  /// key's length (-1 for an empty slot) and context per slot, its bytes in one flat buffer of
  /// ``keyWidth`` bytes per slot (longer keys are not cached).
  private var keyLengths = [Int](repeating: -1, count: 1_024)
  private var keyContexts = [PIIKeyContext](repeating: PIIKeyContext(), count: 1_024)
  private var keyBytes = [UInt8](repeating: 0, count: 1_024 * keyWidth)
  private static let keyWidth = 32
  private var replacements: [Replacement] = []
  private var matches: [PIIMatch] = []
  private var frames: [Frame] = []
  /// The content of the string being scanned with its escapes decoded (when it has some).
  private var unescaped = PIIUnescapedText()
  private let skipsCleanLines: Bool
  /// The lines given so far.
  private var lineNumber = 0
  /// Whether the line being scanned holds a byte outside its strings that is no part of JSON.
  private var strayByte = false
  /// The lines that were not JSON records, scanned as plain text.
  public private(set) var plainTextLines = RedactorPlainTextLines()

  /// A range of the line to replace, and the hash of the value it holds (escapes decoded).
  private struct Replacement {
    var range: Range<Int>
    var kind: PIIKind
    /// Whether the value is a JSON number, quoted when replaced.
    var quote: Bool
    var hash: UInt64
  }

  private struct Frame {
    var isObject: Bool
    var expectsKey: Bool
    var key = PIIKeyContext()
    var latitude: Replacement?
    var longitude: Replacement?
  }

  /// A redactor hashing with `salt` (any text; a random one per run keeps copies unlinkable).
  /// With `skipsCleanLines`, a line no detector could find anything in (`PIILineTrigger`) is
  /// copied without being parsed; the output is the same either way.
  public init(salt: String, skipsCleanLines: Bool = true) {
    hasher = SaltedHash(salt: Array(salt.utf8))
    self.skipsCleanLines = skipsCleanLines
  }

  /// A random salt: 16 bytes from the system's generator, in hexadecimal.
  public static func randomSalt() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined()
  }

  /// The number of values replaced so far.
  public var total: Int { counts.reduce(0, +) }

  /// `line` redacted (without its line break).
  public mutating func redact(line: String) -> String {
    var line = line
    var out: [UInt8] = []
    line.withUTF8 { _ = redact(line: $0, into: &out) }
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `line` redacted to `out`; returns how many values were replaced.
  @discardableResult
  public mutating func redact(line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Int {
    let replaced = appendRedacted(line: line, to: &out)
    if replaced == 0 { out.append(contentsOf: line) }
    return replaced
  }

  /// Appends `line` redacted to `out` when it holds a value to replace; returns how many values
  /// were replaced (0: nothing is appended, the line is copied as it is).
  /// A line that is not a JSON record is scanned as plain text and listed in ``plainTextLines``.
  public mutating func appendRedacted(line: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Int {
    lineNumber += 1
    let startsAsText = RedactorPlainTextLines.startsAsText(line)
    if skipsCleanLines, !PIILineTrigger.mayHoldPII(line) {
      steps += line.count
      if startsAsText { plainTextLines.add(line: lineNumber, replaced: 0) }
      return 0
    }
    replacements.removeAll(keepingCapacity: true)
    frames.removeAll(keepingCapacity: true)
    strayByte = false
    scanLine(line)
    let asText = startsAsText || strayByte
    if asText {
      // The JSON scan's replacements are kept; the text's matches are added to them.
      matches.removeAll(keepingCapacity: true)
      PIIScanner.scan(line, key: PIIKeyContext(), into: &matches, steps: &steps)
      for match in matches {
        let hash = hasher.hash(UnsafeBufferPointer(rebasing: line[match.range]))
        replacements.append(Replacement(range: match.range, kind: match.kind, quote: false, hash: hash))
      }
    }
    let replaced = applyReplacements(line, to: &out)
    if asText { plainTextLines.add(line: lineNumber, replaced: replaced) }
    return replaced
  }

  /// Appends `line` with ``replacements`` made (a replacement overlapping one before it is left
  /// out) when there are some; returns how many were made.
  private mutating func applyReplacements(_ line: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Int {
    guard !replacements.isEmpty else { return 0 }
    replacements.sort { $0.range.lowerBound < $1.range.lowerBound }
    var copied = 0
    var made = 0
    for replacement in replacements where replacement.range.lowerBound >= copied {
      out.append(contentsOf: UnsafeBufferPointer(rebasing: line[copied..<replacement.range.lowerBound]))
      if replacement.quote { out.append(UInt8(ascii: "\"")) }
      out.append(contentsOf: "pii:\(replacement.kind.rawValue):".utf8)
      out.append(contentsOf: Self.hex(replacement.hash).utf8)
      if replacement.quote { out.append(UInt8(ascii: "\"")) }
      copied = replacement.range.upperBound
      counts[replacement.kind.index] += 1
      made += 1
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: line[copied...]))
    return made
  }

  private static func hex(_ value: UInt64) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }

  /// One pass over the line: keys give the context of their values; strings are scanned; numbers
  /// are checked as cards, phones (phone key) or coordinates (latitude/longitude key).
  private mutating func scanLine(_ line: UnsafeBufferPointer<UInt8>) {
    var index = 0
    let count = line.count
    while index < count {
      let byte = line[index]
      switch byte {
      case UInt8(ascii: "{"):
        frames.append(Frame(isObject: true, expectsKey: true))
        index += 1
      case UInt8(ascii: "["):
        frames.append(Frame(isObject: false, expectsKey: false, key: frames.last?.key ?? PIIKeyContext()))
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if let frame = frames.popLast(), frame.isObject, let latitude = frame.latitude,
          let longitude = frame.longitude
        {
          replacements.append(latitude)
          replacements.append(longitude)
        }
        index += 1
      case UInt8(ascii: ","):
        if let last = frames.indices.last, frames[last].isObject { frames[last].expectsKey = true }
        index += 1
      case UInt8(ascii: "\""):
        let start = index + 1
        let end = Self.closingQuote(line, from: start)
        let content = start..<end
        if let last = frames.indices.last, frames[last].isObject, frames[last].expectsKey {
          frames[last].key = context(of: UnsafeBufferPointer(rebasing: line[content]))
          frames[last].expectsKey = false
        } else {
          scanString(line, content)
        }
        index = end + 1
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        var end = index + 1
        while end < count, Self.isNumberByte(line[end]) { end += 1 }
        scanNumber(line, index..<end)
        index = end
      default:
        if !RedactorPlainTextLines.isJSONFiller(byte) { strayByte = true }
        index += 1
      }
    }
  }

  /// The index of the quote closing a string whose content starts at `start` (one preceded by an
  /// even run of backslashes), found with `memchr`, or the line's end.
  private static func closingQuote(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = line.baseAddress else { return start }
    var from = start
    while from < line.count, let found = memchr(base + from, 0x22, line.count - from) {
      let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      var backslashes = 0
      while quote - backslashes - 1 >= start, line[quote - backslashes - 1] == UInt8(ascii: "\\") {
        backslashes += 1
      }
      if backslashes % 2 == 0 { return quote }
      from = quote + 1
    }
    return line.count
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    PIIBytes.isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
      || byte == UInt8(ascii: "E")
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
  }

  private mutating func context(of key: UnsafeBufferPointer<UInt8>) -> PIIKeyContext {
    if Self.hasEscape(key) {
      unescaped.decode(key)
      return unescaped.bytes.withUnsafeBufferPointer { PIIKeyContext(bytes: $0) }
    }
    guard let base = key.baseAddress, key.count <= Self.keyWidth else { return PIIKeyContext(bytes: key) }
    var hash: UInt32 = 2_166_136_261
    for byte in key { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let slot = Int(hash & 1_023)
    let offset = slot * Self.keyWidth
    if keyLengths[slot] == key.count,
      keyBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + offset, base, key.count) == 0 })
    {
      return keyContexts[slot]
    }
    let context = PIIKeyContext(bytes: key)
    keyLengths[slot] = key.count
    keyContexts[slot] = context
    keyBytes.withUnsafeMutableBufferPointer { _ = memcpy($0.baseAddress! + offset, base, key.count) }
    return context
  }

  /// Whether `text` holds a backslash (found with `memchr`).
  private static func hasEscape(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = text.baseAddress else { return false }
    return memchr(base, 0x5C, text.count) != nil
  }

  /// Scans a string's content; one with escapes is scanned decoded (``PIIUnescapedText``), each
  /// match replacing the whole escapes it was decoded from, its hash that of the decoded value.
  private mutating func scanString(_ line: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) {
    let raw = UnsafeBufferPointer(rebasing: line[content])
    guard Self.hasEscape(raw) else {
      scanString(raw, content: content) { $0 }
      return
    }
    var unescaped = self.unescaped
    self.unescaped = PIIUnescapedText()
    unescaped.decode(raw)
    unescaped.bytes.withUnsafeBufferPointer { text in
      scanString(text, content: content) { unescaped.rawRange($0) }
    }
    self.unescaped = unescaped
  }

  /// Scans `text`, the string's content at `content` in the line or its decoded form (`rawRange`
  /// maps a range of `text` to one of the content).
  private mutating func scanString(
    _ text: UnsafeBufferPointer<UInt8>, content: Range<Int>, rawRange: (Range<Int>) -> Range<Int>
  ) {
    let key = frames.last?.key ?? PIIKeyContext()
    if key.latitude || key.longitude, noteCoordinate(text, content, isNumber: false, key: key) { return }
    matches.removeAll(keepingCapacity: true)
    PIIScanner.scan(text, key: key, into: &matches, steps: &steps)
    for match in matches {
      let raw = rawRange(match.range)
      let range = (content.lowerBound + raw.lowerBound)..<(content.lowerBound + raw.upperBound)
      let hash = hasher.hash(UnsafeBufferPointer(rebasing: text[match.range]))
      replacements.append(Replacement(range: range, kind: match.kind, quote: false, hash: hash))
    }
  }

  private mutating func scanNumber(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    let key = frames.last?.key ?? PIIKeyContext()
    let text = UnsafeBufferPointer(rebasing: line[range])
    if key.latitude || key.longitude {
      _ = noteCoordinate(text, range, isNumber: true, key: key)
      return
    }
    guard key.phone || range.count >= 13 else { return }
    matches.removeAll(keepingCapacity: true)
    PIIScanner.scan(text, key: key, kinds: .numbers, into: &matches, steps: &steps)
    if let match = matches.first, match.range == 0..<text.count {
      replacements.append(Replacement(range: range, kind: match.kind, quote: true, hash: hasher.hash(text)))
    }
  }

  /// Keeps a precise coordinate `text` (at `range` in the line, a string's decoded content or a
  /// number) in its object's frame (replaced when the object has both).
  private mutating func noteCoordinate(
    _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, isNumber: Bool, key: PIIKeyContext
  ) -> Bool {
    guard let last = frames.indices.last, frames[last].isObject,
      PIIScan.isPreciseCoordinate(text, limit: key.latitude ? 90 : 180)
    else { return false }
    let coordinate = Replacement(range: range, kind: .geo, quote: isNumber, hash: hasher.hash(text))
    if key.latitude {
      frames[last].latitude = coordinate
    } else {
      frames[last].longitude = coordinate
    }
    return true
  }
}
