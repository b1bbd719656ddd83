/// The content of a JSON string as its escapes mean it (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`,
/// `\t`, `\uXXXX` with surrogate pairs), so the detectors read `030\/12345678` as `030/12345678`
/// and `{\"idfa\":\"…\"}` as `{"idfa":"…"}`; each decoded byte remembers where its escape starts in
/// the raw text, so a match is mapped back to whole escapes. A malformed escape (`\x`, a cut or
/// lone `\u` surrogate) is kept as written, byte for byte.
struct PIIUnescapedText {
  /// The decoded bytes (UTF-8).
  private(set) var bytes: [UInt8] = []
  /// For each decoded byte, the offset in the raw text where its escape (or the byte itself)
  /// starts; then one more entry, the raw text's length.
  private var starts: [Int] = []

  /// Decodes `raw`, the content of a string between its quotes, replacing what was decoded before.
  mutating func decode(_ raw: UnsafeBufferPointer<UInt8>) {
    bytes.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
        append(byte, at: index)
        index += 1
        continue
      }
      if let simple = Self.simpleEscape(raw[index + 1]) {
        append(simple, at: index)
        index += 2
      } else if raw[index + 1] == UInt8(ascii: "u"), let (scalar, length) = Self.unicodeEscape(raw, at: index)
      {
        if let encoded = UTF8.encode(scalar) { for unit in encoded { append(unit, at: index) } }
        index += length
      } else {
        append(byte, at: index)
        index += 1
      }
    }
    starts.append(raw.count)
  }

  /// The raw range of the decoded `range`: from its first byte's escape to the end of its last
  /// byte's escape.
  func rawRange(_ range: Range<Int>) -> Range<Int> {
    guard !range.isEmpty else { return starts[range.lowerBound]..<starts[range.lowerBound] }
    var end = range.upperBound
    while end < bytes.count, starts[end] == starts[range.upperBound - 1] { end += 1 }
    return starts[range.lowerBound]..<starts[end]
  }

  private mutating func append(_ byte: UInt8, at start: Int) {
    bytes.append(byte)
    starts.append(start)
  }

  /// The byte a two-byte escape `\x` stands for, if `x` makes one.
  private static func simpleEscape(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return byte
    case UInt8(ascii: "b"): return 0x08
    case UInt8(ascii: "f"): return 0x0C
    case UInt8(ascii: "n"): return 0x0A
    case UInt8(ascii: "r"): return 0x0D
    case UInt8(ascii: "t"): return 0x09
    default: return nil
    }
  }

  /// The scalar of the `\uXXXX` escape at `index` (a surrogate pair spans two escapes) and the
  /// raw bytes it spans; `nil` when cut or a lone surrogate.
  private static func unicodeEscape(_ raw: UnsafeBufferPointer<UInt8>, at index: Int)
    -> (Unicode.Scalar, Int)?
  {
    guard let unit = hex4(raw, index + 2) else { return nil }
    if (0xD800...0xDBFF).contains(unit) {
      guard index + 11 < raw.count, raw[index + 6] == UInt8(ascii: "\\"), raw[index + 7] == UInt8(ascii: "u"),
        let low = hex4(raw, index + 8), (0xDC00...0xDFFF).contains(low),
        let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
      else { return nil }
      return (scalar, 12)
    }
    return Unicode.Scalar(unit).map { ($0, 6) }
  }

  /// The value of the 4 hexadecimal digits at `index`, if there are 4.
  private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt32? {
    guard index + 4 <= raw.count else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = raw[index + offset]
      let digit: UInt8
      if PIIBytes.isDigit(byte) {
        digit = byte - UInt8(ascii: "0")
      } else if (byte | 0x20) &- 0x61 < 6 {
        digit = (byte | 0x20) - 0x61 + 10
      } else {
        return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
