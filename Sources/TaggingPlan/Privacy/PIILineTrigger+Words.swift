extension PIILineTrigger {
  /// Whether some detector could find personal data in `line`: the same answer as
  /// ``mayHoldPIIByteByByte(_:)``, reading the line 8 bytes at a time and running the byte pass
  /// only on the stretches where it could find something.
  ///
  /// Every trigger but `@`, `\`, `J` and a space (looked for in each word) lies between two
  /// letters past `f` (none of a trigger's bytes), and after such a letter the byte pass holds no
  /// run, no hexadecimal or address bytes and no decimals (``State/resume(after:inString:)``). So a
  /// word without a digit, a trigger byte or a colon following a colon is skipped, its quotes
  /// counted; a word with one is read byte by byte from the byte after the last letter to the first
  /// letter past the word. A stretch of 36 bytes without a letter (a UUID's length) is left to the
  /// byte pass.
  static func mayHoldPII(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    let found: Bool? = classes.withUnsafeBufferPointer { classes -> Bool? in
      var skip = WordSkip(pass: Pass(base: base, classes: classes), count: line.count)
      return skip.run()
    }
    return found ?? mayHoldPIIByteByByte(line)
  }

  /// The word-skipping pass over one line.
  private struct WordSkip {
    var pass: Pass
    let count: Int
    /// Bytes before `position` are read (skipped or passed byte by byte).
    var position = 0
    /// The last letter past `f` before `position` (-1: none).
    var lastLetter = -1
    /// Inside a string at `position`.
    var inString = false
    /// The last colon, quote or letter before `position` is a colon.
    var afterColon = false

    init(pass: Pass, count: Int) {
      self.pass = pass
      self.count = count
    }

    /// The answer; `nil` when the byte pass over the whole line must give it (a long stretch
    /// without letters, or eight digits that count only under a phone key's word).
    mutating func run() -> Bool? {
      let base = pass.base
      while position + 8 <= count {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
        let letters = PIIWordMask.letters(word)
        let quotes = PIIWordMask.equal(word, UInt8(ascii: "\""))
        let colons = PIIWordMask.equal(word, UInt8(ascii: ":"))
        if PIIWordMask.hasTrigger(word) || colonFollowsColon(colons, breaks: letters | quotes) {
          guard let found = passBytes(through: position + 8) else { return pass.finish() }
          if found { return true }
          continue
        }
        if letters != 0 {
          let first = position + PIIWordMask.lowestByte(letters)
          if first - lastLetter - 1 >= 36 { return nil }
          lastLetter = position + PIIWordMask.highestByte(letters)
        } else if position + 8 - lastLetter - 1 >= 36 {
          return nil
        }
        if quotes.nonzeroBitCount & 1 == 1 { inString.toggle() }
        position += 8
      }
      guard passBytes(through: count) == nil else { return true }
      return pass.finish()
    }

    /// Runs the byte pass from the byte after the last letter through `limit` and on to the next
    /// letter; true when it found a trigger, false when it stopped after a letter, `nil` at the
    /// line's end.
    private mutating func passBytes(through limit: Int) -> Bool? {
      let base = pass.base
      let start = lastLetter + 1
      var startsInString = inString
      for index in start..<position where base[index] == UInt8(ascii: "\"") { startsInString.toggle() }
      pass.state.resume(after: start > 0 ? base[start - 1] : 0, inString: startsInString)
      var index = start
      while index < count {
        if pass.visit(index) { return true }
        index += 1
        if index >= limit, index < count, PIIWordMask.isLetter(base[index - 1]) {
          lastLetter = index - 1
          position = index
          inString = pass.state.inString
          afterColon = false
          return false
        }
      }
      position = count
      return nil
    }

    /// Whether a colon of the word follows a colon with no letter past `f` or quote (`breaks`)
    /// between them (an IPv6 address's run has two colons); notes whether the word ends after one.
    private mutating func colonFollowsColon(_ colons: UInt64, breaks: UInt64) -> Bool {
      let marks = colons | breaks
      guard marks != 0 else { return false }
      var rest = colons
      while rest != 0 {
        let colon = rest & (0 &- rest)
        let before = marks & (colon &- 1)
        if before == 0 ? afterColon : colons & PIIWordMask.highest(before) != 0 { return true }
        rest &= rest &- 1
      }
      afterColon = colons & PIIWordMask.highest(marks) != 0
      return false
    }
  }
}

/// Bytes of an 8-byte word (the first byte lowest), tested all at once: a mask has `0x80` in each
/// byte that passes.
enum PIIWordMask {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080
  private static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

  /// The bytes equal to `byte` (an ASCII byte).
  @inline(__always)
  static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let diff = word ^ (ones &* UInt64(byte))
    return ~(((diff & lows) &+ lows) | diff | lows)
  }

  /// The letters past `f`: `g`–`z` and `G`–`Z`.
  @inline(__always)
  static func letters(_ word: UInt64) -> UInt64 {
    let lower = (word | (ones &* 0x20)) & lows
    let fromG = lower &+ ones &* (0x80 - 0x67)
    let pastZ = lower &+ ones &* (0x7F - 0x7A)
    return fromG & ~pastZ & ~word & highs
  }

  @inline(__always)
  static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x67 < 20 }

  /// Whether the word holds a digit, `@`, `\`, `J` or a space (whose trigger the byte pass reads).
  @inline(__always)
  static func hasTrigger(_ word: UInt64) -> Bool {
    func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let digits = ((word ^ (ones &* 0x30)) &- ones &* 10) & ~(word ^ (ones &* 0x30)) & highs
    return digits | hasZero(word ^ (ones &* 0x40)) | hasZero(word ^ (ones &* 0x5C))
      | hasZero(word ^ (ones &* 0x4A)) | hasZero(word ^ (ones &* 0x20)) != 0
  }

  /// The place of the first and of the last byte a mask holds.
  @inline(__always)
  static func lowestByte(_ mask: UInt64) -> Int { mask.trailingZeroBitCount >> 3 }
  @inline(__always)
  static func highestByte(_ mask: UInt64) -> Int { (63 - mask.leadingZeroBitCount) >> 3 }
  /// The highest bit of a non-zero mask.
  @inline(__always)
  static func highest(_ mask: UInt64) -> UInt64 { 1 << UInt64(63 - mask.leadingZeroBitCount) }
}
