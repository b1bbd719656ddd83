/// The line-level pre-check of ``Redactor``: one pass over a recording line's raw bytes that is
/// true for every line in which some detector could find personal data, so a line for which it is
/// false is copied as it is without being parsed. It may be true on a line without personal data
/// (the detectors then decide); it is never false on a line with some.
///
/// Each detector's trigger, read on the raw bytes; a line holding a backslash is always parsed (the
/// detectors read a string's content with its escapes decoded, so `\u0040` is an `@`):
/// - email: an `@`;
/// - token: `eyJ` (any case of `ey`), or `bearer ` / `basic ` in any case;
/// - advertising id: 36 hexadecimal digits and dashes in a row (a UUID);
/// - IPv6: a run of hexadecimal digits, `:` and `.` holding two colons, after no letter or digit;
/// - geolocation: two `.` each followed by 4 digits (a pair, or a latitude and a longitude);
/// - card, phone, IPv4: a run of digits and separators (as ``PIIScan/readRun(from:into:)``
///   reads it, started where a run may start) with 10 digits, or 8 after a `+`, or 4 with three
///   dots; or 8 digits that may end a number, when the line holds a phone key's word.
enum PIILineTrigger {
  /// Whether some detector could find personal data in `line`, read byte by byte (the reference
  /// ``mayHoldPII(_:)`` skips most of the line's words and gives the same answer).
  static func mayHoldPIIByteByByte(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    let found: Bool? = classes.withUnsafeBufferPointer { classes -> Bool? in
      var pass = Pass(base: base, classes: classes)
      for index in 0..<line.count where pass.visit(index) { return true }
      return pass.finish()
    }
    return found ?? containsPhoneWord(line)
  }

  /// One byte-by-byte pass: the line's bytes, the byte classes and the state.
  struct Pass {
    let base: UnsafePointer<UInt8>
    let classes: UnsafeBufferPointer<UInt8>
    var state = State()

    init(base: UnsafePointer<UInt8>, classes: UnsafeBufferPointer<UInt8>) {
      self.base = base
      self.classes = classes
    }

    /// Reads the byte at `index`; true when the line may hold personal data.
    @inline(__always)
    mutating func visit(_ index: Int) -> Bool {
      let byte = base[index]
      let kind = classes[Int(byte)]
      if kind >= letter, kind <= quote, !state.inRun, !state.escaped {
        // The common bytes: letters and quotes outside a run of digits.
        if kind == hexLetter {
          state.hexDashes += 1
          if state.hexDashes >= 36 { return true }
          if !state.inAddress {
            state.inAddress = true
            state.addressMayStart = !PIIBytes.isAlnum(state.previous)
            state.colons = 0
          }
        } else {
          state.hexDashes = 0
          state.inAddress = false
          if kind == quote { state.inString.toggle() }
        }
        state.decimals = -1
        state.previous = byte
        return false
      }
      if kind == at { return true }
      if byte == UInt8(ascii: " "), endsCredentialWord(base, index) { return true }
      if byte == UInt8(ascii: "J"), index >= 2, base[index - 2] | 0x20 == UInt8(ascii: "e"),
        base[index - 1] | 0x20 == UInt8(ascii: "y")
      {
        return true
      }
      return state.step(byte, kind: kind)
    }

    /// The answer at the line's end: true, false, or `nil` when it depends on a phone key's word.
    mutating func finish() -> Bool? { state.endRun(next: 0) ? true : state.eightDigits ? nil : false }
  }

  /// Whether the bytes before the space at `index` are `bearer` or `basic`, in any case.
  @inline(__always)
  static func endsCredentialWord(_ base: UnsafePointer<UInt8>, _ index: Int) -> Bool {
    func word(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard index >= count else { return false }
      for offset in 0..<count where PIIBytes.lower(base[index - count + offset]) != text.utf8Start[offset] {
        return false
      }
      return true
    }
    return word("bearer") || word("basic")
  }

  /// Byte classes: letters past `f` (but `J`), hexadecimal letters, quotes, digits, `@` and `\`,
  /// the rest.
  private static var letter: UInt8 { 1 }
  private static var hexLetter: UInt8 { 2 }
  private static var quote: UInt8 { 3 }
  private static var digit: UInt8 { 4 }
  private static var at: UInt8 { 5 }
  static let classes: [UInt8] = (0...255).map { value in
    let byte = UInt8(value)
    if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "\\") { return at }
    if PIIBytes.isDigit(byte) { return digit }
    if byte == UInt8(ascii: "\"") { return quote }
    if PIIBytes.isHex(byte) { return hexLetter }
    if PIIBytes.isAlpha(byte), byte != UInt8(ascii: "J") { return letter }
    return 0
  }

  /// Whether `line` holds, in any case, a word of a phone key (`phone`, `tel`, `mobile`, `msisdn`,
  /// `cell`; ``PIIKeyContext`` compares the words of keys, which are substrings of the line).
  static func containsPhoneWord(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    let (tel, cell, phone, mobile, msisdn) = (Self.tel, Self.cell, Self.phone, Self.mobile, Self.msisdn)
    var register: UInt64 = 0
    for byte in line {
      register = (register << 8) | UInt64(PIIBytes.lower(byte))
      if register & 0xFF_FFFF == tel || register & 0xFFFF_FFFF == cell
        || register & 0xFF_FFFF_FFFF == phone || register & 0xFFFF_FFFF_FFFF == mobile
        || register & 0xFFFF_FFFF_FFFF == msisdn
      {
        return true
      }
    }
    return false
  }

  /// `word`'s bytes packed as a rolling register holds them (the last byte lowest).
  private static func packed(_ word: String) -> UInt64 {
    word.utf8.reduce(0) { ($0 << 8) | UInt64($1) }
  }

  private static let tel = packed("tel")
  private static let cell = packed("cell")
  private static let phone = packed("phone")
  private static let mobile = packed("mobile")
  private static let msisdn = packed("msisdn")

  /// The pass's state after each byte.
  struct State {
    /// Inside a string (as ``Redactor`` reads them: an unescaped quote closes it).
    var inString = false
    var escaped = false
    var previous: UInt8 = 0
    /// Hexadecimal digits and dashes in a row.
    var hexDashes = 0
    /// In a run of hexadecimal digits, `:` and `.`; whether it may be an IPv6 address; its colons.
    var inAddress = false
    var addressMayStart = false
    var colons = 0
    /// Digits after the last `.` (-1 when not after one), and the dots followed by 4 digits.
    var decimals = -1
    var preciseDecimals = 0
    /// The current run of digits and separators.
    var inRun = false
    var runInString = false
    var digits = 0
    var separators = 0
    var dots = 0
    var plus = false
    /// A run of 8 digits that may end a number was seen (a phone number under a phone key).
    var eightDigits = false

    /// The state after a letter past `f` (`previous`) read outside an escape, when the string
    /// state is `inString`: no run, no hexadecimal or address bytes, no decimals; the line's counts
    /// (precise decimals, eight digits) kept.
    mutating func resume(after previous: UInt8, inString: Bool) {
      self.previous = previous
      self.inString = inString
      escaped = false
      hexDashes = 0
      inAddress = false
      decimals = -1
      inRun = false
    }

    /// Reads `byte` of class `kind`; true when the line may hold personal data.
    @inline(__always)
    mutating func step(_ byte: UInt8, kind: UInt8) -> Bool {
      defer { previous = byte }
      let hex = kind == PIILineTrigger.digit || kind == PIILineTrigger.hexLetter
      if hex || byte == UInt8(ascii: "-") {
        hexDashes += 1
        if hexDashes >= 36 { return true }
      } else {
        hexDashes = 0
      }
      if address(byte, hex: hex) || geo(byte) || number(byte) { return true }
      string(byte)
      return false
    }

    private mutating func address(_ byte: UInt8, hex: Bool) -> Bool {
      guard hex || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") else {
        inAddress = false
        return false
      }
      if !inAddress {
        inAddress = true
        addressMayStart = !PIIBytes.isAlnum(previous)
        colons = 0
      }
      if byte == UInt8(ascii: ":") { colons += 1 }
      return addressMayStart && colons >= 2
    }

    private mutating func geo(_ byte: UInt8) -> Bool {
      if byte == UInt8(ascii: ".") {
        decimals = 0
      } else if decimals >= 0, PIIBytes.isDigit(byte) {
        decimals += 1
        if decimals == 4 {
          preciseDecimals += 1
          if preciseDecimals >= 2 { return true }
        }
      } else {
        decimals = -1
      }
      return false
    }

    private mutating func number(_ byte: UInt8) -> Bool {
      if PIIBytes.isDigit(byte) {
        if inRun {
          digits += 1
          separators = 0
          return false
        }
        return startRun(byte)
      }
      let separator = PIIScan.isRunSeparator(byte) || byte == UInt8(ascii: "+")
      guard inRun else { return separator ? startRun(byte) : false }
      if separator, byte != UInt8(ascii: "+"), separators < 2 {
        separators += 1
        if byte == UInt8(ascii: ".") { dots += 1 }
        return false
      }
      if endRun(next: byte) { return true }
      return separator ? startRun(byte) : false
    }

    /// Starts a run at `byte` where ``PIIScan/findNumberRuns(kinds:)`` may start one (a digit,
    /// `+` or `(`; in a string, after a boundary; a number's runs start at its first byte).
    private mutating func startRun(_ byte: UInt8) -> Bool {
      let starts =
        PIIBytes.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "(")
      guard starts, !inString || PIIScan.isRunBoundary(before: previous) else { return false }
      inRun = true
      runInString = inString
      digits = PIIBytes.isDigit(byte) ? 1 : 0
      separators = digits == 1 ? 0 : 1
      dots = 0
      plus = byte == UInt8(ascii: "+")
      return false
    }

    /// Ends the current run before `next`; true when it may be a card, IPv4 or phone number.
    mutating func endRun(next: UInt8) -> Bool {
      guard inRun else { return false }
      inRun = false
      if digits >= 10 || (plus && digits >= 8) || (dots >= 3 && digits >= 4) { return true }
      if digits >= 8 {
        // In a string, a letter, `_`, `%`, `@` or `:` right after the last digit ends no number.
        let noEnd =
          runInString && separators == 0
          && (PIIBytes.isAlnum(next) || next == UInt8(ascii: "_") || next == UInt8(ascii: "%")
            || next == UInt8(ascii: ":"))
        if !noEnd { eightDigits = true }
      }
      return false
    }

    private mutating func string(_ byte: UInt8) {
      if escaped {
        escaped = false
      } else if inString, byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString.toggle()
      }
    }
  }
}
