extension PIILineTrigger {
  /// Whether some detector could find personal data in `line`: the same answer as
  /// ``mayHoldPIIByteByByte(_:)``, reading the line 8 bytes at a time and running the byte pass
  /// only on the stretches where it could find something.
  ///
  /// `@` and `\` answer at once; a space (`bearer `, `basic `) and a `J` (`eyJ`) are checked where
  /// they are, as the byte pass does. Every other trigger lies between two letters past `f` (none of
  /// a trigger's bytes) and needs 4 digits there (a run of 8 or more, 4 with three dots, `.` and 4
  /// decimals), two colons with no quote or letter between them (an IPv6 address), or 36 bytes (a
  /// UUID); after such a letter the byte pass holds no run, no hexadecimal or address bytes and no
  /// decimals (``State/resume(after:inString:)``). So a word is skipped, its quotes counted, unless
  /// its stretch between letters reaches 4 digits or a colon follows a colon: then the byte pass
  /// reads from the byte after the last letter to the first letter past the word. A stretch of 36
  /// bytes without a letter is left to the byte pass.
  static func mayHoldPII(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    var needsBytePass = false
    let found: Bool? = classes.withUnsafeBufferPointer { classes -> Bool? in
      var skip = WordSkip(pass: Pass(base: base, classes: classes), count: line.count)
      defer { needsBytePass = skip.needsBytePass }
      return skip.run()
    }
    if let found { return found }
    return needsBytePass ? mayHoldPIIByteByByte(line) : containsPhoneWord(line)
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
    /// Digits after the last letter, before `position`.
    var digits = 0
    /// A stretch of 36 bytes without a letter was met: the byte pass must answer.
    var needsBytePass = false

    init(pass: Pass, count: Int) {
      self.pass = pass
      self.count = count
    }

    /// The answer; `nil` when the byte pass over the whole line must give it (a long stretch
    /// without letters, ``needsBytePass``) or when it depends on a phone key's word (eight digits).
    mutating func run() -> Bool? {
      let base = pass.base
      while position + 8 <= count {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
        if PIIWordMask.hasAtOrBackslash(word) { return true }
        let spacesAndJ =
          PIIWordMask.equal(word, UInt8(ascii: " ")) | PIIWordMask.equal(word, UInt8(ascii: "J"))
        if spacesAndJ != 0, credentialOrJWT(spacesAndJ) { return true }
        let letters = PIIWordMask.letters(word)
        let quotes = PIIWordMask.equal(word, UInt8(ascii: "\""))
        let colons = PIIWordMask.equal(word, UInt8(ascii: ":"))
        if enoughDigits(PIIWordMask.digits(word), letters: letters)
          || colonFollowsColon(colons, breaks: letters | quotes)
        {
          if skipQuietStretch(through: position + 8) { continue }
          guard let found = passBytes(through: position + 8) else { return pass.finish() }
          if found { return true }
          continue
        }
        if letters != 0 {
          let first = position + PIIWordMask.lowestByte(letters)
          if first - lastLetter - 1 >= 36 { return bytePass() }
          lastLetter = position + PIIWordMask.highestByte(letters)
        } else if position + 8 - lastLetter - 1 >= 36 {
          return bytePass()
        }
        if quotes.nonzeroBitCount & 1 == 1 { inString.toggle() }
        position += 8
      }
      guard passBytes(through: count) == nil else { return true }
      return pass.finish()
    }

    private mutating func bytePass() -> Bool? {
      needsBytePass = true
      return nil
    }

    /// Skips the stretch from the byte after the last letter through the next letter at or past
    /// `limit - 1` when ``PIIQuietStretch`` finds the byte pass would find nothing there.
    private mutating func skipQuietStretch(through limit: Int) -> Bool {
      let start = lastLetter + 1
      guard
        let end = PIIQuietStretch.end(
          pass.base, from: start, last: limit - 1, count: count, inString: stringState(at: start))
      else { return false }
      lastLetter = end.index
      position = end.index + 1
      inString = end.inString
      digits = 0
      return true
    }

    /// The string state at `start`, at or before `position`: `inString` with the quotes between
    /// them read back (no line reaching the word pass's loop has a backslash before `position`).
    private func stringState(at start: Int) -> Bool {
      var state = inString
      for index in start..<position where pass.base[index] == UInt8(ascii: "\"") { state.toggle() }
      return state
    }

    /// Runs the byte pass from the byte after the last letter through `limit` and on to the next
    /// letter; true when it found a trigger, false when it stopped after a letter, `nil` at the
    /// line's end.
    private mutating func passBytes(through limit: Int) -> Bool? {
      let base = pass.base
      let start = lastLetter + 1
      pass.state.resume(after: start > 0 ? base[start - 1] : 0, inString: stringState(at: start))
      var index = start
      while index < count {
        if pass.visit(index) { return true }
        index += 1
        if index >= limit, index < count, PIIWordMask.isLetter(base[index - 1]) {
          lastLetter = index - 1
          position = index
          inString = pass.state.inString
          digits = 0
          return false
        }
      }
      position = count
      return nil
    }

    /// Whether a stretch between letters reaches 4 digits with the word's (`digits`, `letters`):
    /// the one open before it, one inside it, or the one it leaves open (whose digits it notes).
    @inline(__always)
    private mutating func enoughDigits(_ digitMask: UInt64, letters: UInt64) -> Bool {
      guard digitMask != 0 else {
        if letters != 0 { digits = 0 }
        return false
      }
      guard letters != 0 else {
        digits += digitMask.nonzeroBitCount
        return digits >= 4
      }
      let first = letters & (0 &- letters)
      let beforeFirst = digitMask & (first &- 1)
      let afterLast = digitMask & ~(PIIWordMask.highest(letters) &- 1)
      if digits + beforeFirst.nonzeroBitCount >= 4 { return true }
      if (digitMask & ~beforeFirst & ~afterLast).nonzeroBitCount >= 4 { return true }
      digits = afterLast.nonzeroBitCount
      return digits >= 4
    }

    /// Whether a space of the word (`marks`, with its `J`s) ends `bearer` or `basic`, or a `J`
    /// ends `eyJ`, as the byte pass checks them.
    private func credentialOrJWT(_ marks: UInt64) -> Bool {
      var rest = marks
      while rest != 0 {
        let index = position + PIIWordMask.lowestByte(rest)
        let byte = pass.base[index]
        if byte == UInt8(ascii: " ") {
          if endsCredentialWord(pass.base, index) { return true }
        } else if index >= 2, pass.base[index - 2] | 0x20 == UInt8(ascii: "e"),
          pass.base[index - 1] | 0x20 == UInt8(ascii: "y")
        {
          return true
        }
        rest &= rest &- 1
      }
      return false
    }

    /// Whether a colon of the word follows a colon with no letter past `f` or quote (`breaks`)
    /// between them (an IPv6 address's run has two colons), or may: only a colon right after a
    /// byte that is not a break (not `":`) can, and the bytes before it are read back to the last
    /// colon or break, 64 at most.
    @inline(__always)
    private func colonFollowsColon(_ colons: UInt64, breaks: UInt64) -> Bool {
      guard colons != 0 else { return false }
      let previous = position > 0 ? pass.base[position - 1] : 0
      let previousBreaks: UInt64 = PIIWordMask.isLetter(previous) || previous == UInt8(ascii: "\"") ? 0x80 : 0
      var rest = colons & ~((breaks << 8) | previousBreaks)
      while rest != 0 {
        var index = position + PIIWordMask.lowestByte(rest) - 1
        let floor = index - 64
        while index >= 0 {
          let byte = pass.base[index]
          if byte == UInt8(ascii: ":") || index == floor { return true }
          if PIIWordMask.isLetter(byte) || byte == UInt8(ascii: "\"") { break }
          index -= 1
        }
        rest &= rest &- 1
      }
      return false
    }
  }
}

/// Bytes of an 8-byte word (the first byte lowest), tested all at once: a mask has `0x80` in each
/// byte that passes.
enum PIIWordMask {
  // Computed, not stored: a stored static is read through a lazy initializer's check.
  @inline(__always) private static var ones: UInt64 { 0x0101_0101_0101_0101 }
  @inline(__always) private static var highs: UInt64 { 0x8080_8080_8080_8080 }
  @inline(__always) private static var lows: UInt64 { 0x7F7F_7F7F_7F7F_7F7F }

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

  /// Whether the word holds an `@` or a `\`.
  @inline(__always)
  static func hasAtOrBackslash(_ word: UInt64) -> Bool {
    func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    return hasZero(word ^ (ones &* 0x40)) | hasZero(word ^ (ones &* 0x5C)) != 0
  }

  /// The digits.
  @inline(__always)
  static func digits(_ word: UInt64) -> UInt64 {
    let diff = word ^ (ones &* 0x30)
    return ~(((diff & lows) &+ ones &* (0x80 - 10)) | diff) & highs
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
