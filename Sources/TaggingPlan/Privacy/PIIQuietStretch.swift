/// A quick look at a stretch that ``PIILineTrigger/mayHoldPII(_:)``'s word pass cannot skip (4
/// digits, or a colon after a colon, between letters past `f`): whether the byte pass would surely
/// find nothing there, with less state than the byte pass. Most such stretches of a recording are
/// timestamps, counters and ids (`"2026-11-21T10:00:04.210Z"`, `"seq":1234`, `"s-1795989626-1"`).
///
/// Every trigger of the byte pass's runs (10 digits, `+` and 8 digits, three dots, 8 digits that
/// may end a number) lies in a *segment*, a stretch of digits, run separators and `+`, from a byte
/// where a run may start (a digit, `+` or `(`; in a string, after a boundary, as
/// ``PIIScan/isRunBoundary(before:)`` says). So a stretch is quiet when no such segment holds 8
/// digits or three dots, but for a segment of 8 or 9 digits that is one run in a string and ends
/// right after a digit where no number ends (`2026-11-21T`); when no `.` is followed by 4 digits
/// (a coordinate's decimals); when no address run (hexadecimal digits, `:` and `.`, after no letter
/// or digit) holds two colons; and when it holds no `@`, `\`, space or `J` and is shorter than 36
/// bytes. Anything else is left to the byte pass.
struct PIIQuietStretch {
  private let base: UnsafePointer<UInt8>
  private var inString: Bool
  private var inSegment = false
  /// A run may have started in the segment; its digits and dots are counted from there.
  private var armed = false
  /// The segment is one run from its first byte: digits with single `-`, `.` or `/` between them.
  private var simple = false
  private var digits = 0
  private var dots = 0
  /// Digits after the last `.` (-1 when not after one).
  private var decimals = -1
  private var inAddress = false
  private var addressMayStart = false
  private var colons = 0

  private init(base: UnsafePointer<UInt8>, inString: Bool) {
    self.base = base
    self.inString = inString
  }

  /// Where the byte pass, resumed at `start` after a letter past `f` or at the line's start
  /// (``PIILineTrigger/State/resume(after:inString:)``) in the string state `inString`, surely
  /// answers false through the first letter past `f` at or after `last` (not the line's last
  /// byte), leaving the line's counts as they were: that letter's index and the string state after
  /// it; `nil` when it may find something or no such letter comes first.
  static func end(_ base: UnsafePointer<UInt8>, from start: Int, last: Int, count: Int, inString: Bool)
    -> (index: Int, inString: Bool)?
  {
    var stretch = PIIQuietStretch(base: base, inString: inString)
    var index = start
    while index + 1 < count, index - start < 36 {
      let byte = base[index]
      let previous = index > 0 ? base[index - 1] : 0
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard stretch.digit(previous, at: index) else { return nil }
      case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "("),
        UInt8(ascii: ")"):
        guard stretch.separator(byte, previous, at: index) else { return nil }
      case UInt8(ascii: "@"), UInt8(ascii: "\\"), UInt8(ascii: " "), UInt8(ascii: "J"):
        return nil
      default:
        guard stretch.endSegment(before: byte, previous) else { return nil }
        stretch.decimals = -1
        if PIIWordMask.isLetter(byte) {
          if index >= last { return (index, stretch.inString) }
          stretch.inAddress = false
        } else if byte == UInt8(ascii: ":") || PIIBytes.isHex(byte) {
          guard stretch.address(byte, previous) else { return nil }
        } else {
          stretch.inAddress = false
          if byte == UInt8(ascii: "\"") { stretch.inString.toggle() }
        }
      }
      index += 1
    }
    return nil
  }

  /// A digit: false when a run may reach 10 digits or a `.` 4 decimals.
  private mutating func digit(_ previous: UInt8, at index: Int) -> Bool {
    if !inSegment { startSegment() }
    if !armed, !inString || PIIScan.isRunBoundary(before: previous) {
      arm(simple: index == 0 || !isSegmentByte(previous))
    }
    digits += 1
    if armed, digits >= 10 { return false }
    if decimals >= 0 {
      decimals += 1
      if decimals >= 4 { return false }
    }
    return address(UInt8(ascii: "0"), previous)
  }

  /// `.`, `-`, `/`, `+`, `(` or `)`: false when a run may reach three dots or an address two colons.
  private mutating func separator(_ byte: UInt8, _ previous: UInt8, at index: Int) -> Bool {
    if !inSegment { startSegment() }
    let single = byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
    if !single || !PIIBytes.isDigit(previous) { simple = false }
    if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "("), !armed,
      !inString || PIIScan.isRunBoundary(before: previous)
    {
      arm(simple: false)
    }
    guard byte == UInt8(ascii: ".") else {
      decimals = -1
      inAddress = false
      return true
    }
    dots += 1
    if armed, dots >= 3 { return false }
    decimals = 0
    return address(byte, previous)
  }

  private func isSegmentByte(_ byte: UInt8) -> Bool {
    PIIBytes.isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "/")
      || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
  }

  private mutating func startSegment() {
    inSegment = true
    armed = false
    simple = false
    digits = 0
    dots = 0
  }

  private mutating func arm(simple: Bool) {
    armed = true
    self.simple = simple
    digits = 0
    dots = 0
  }

  /// Ends the segment before `next` (`previous` its last byte): false when its run may be 8 digits
  /// that may end a number (a phone number under a phone key).
  private mutating func endSegment(before next: UInt8, _ previous: UInt8) -> Bool {
    defer { inSegment = false }
    guard inSegment, armed, digits >= 8 else { return true }
    // As ``PIILineTrigger/State/endRun(next:)``: in a string, a letter, digit, `_`, `%` or `:` right
    // after the last digit ends no number.
    return simple && inString && PIIBytes.isDigit(previous)
      && (PIIBytes.isAlnum(next) || next == UInt8(ascii: "_") || next == UInt8(ascii: "%")
        || next == UInt8(ascii: ":"))
  }

  /// A byte of an address run (a hexadecimal digit, `:` or `.`): false when the run may be an IPv6
  /// address (two colons, after no letter or digit).
  private mutating func address(_ byte: UInt8, _ previous: UInt8) -> Bool {
    if !inAddress {
      inAddress = true
      addressMayStart = !PIIBytes.isAlnum(previous)
      colons = 0
    }
    if byte == UInt8(ascii: ":") { colons += 1 }
    return !(addressMayStart && colons >= 2)
  }
}
