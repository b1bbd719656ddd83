/// Fast character-class checks shared by the provider modules' rule sets; ASCII is scanned byte by byte and only
/// non-ASCII text falls back to `Character` properties, so checking a typical event name costs a
/// single pass over its UTF-8 bytes.
package enum TextChecks {
  /// Whether `byte` is an ASCII letter.
  @inlinable
  package static func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
  }

  /// Whether `byte` is an ASCII digit.
  @inlinable
  package static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// A name made of letters, digits and underscores that starts with a letter; non-ASCII letters
  /// and digits count (Firebase accepts "alphanumeric" in the Unicode sense).
  @inlinable
  package static func isLetterDigitUnderscoreStartingWithLetter(_ text: String) -> Bool {
    var utf8 = text.utf8.makeIterator()
    guard let first = utf8.next() else { return false }
    if first >= 0x80 { return unicodeLetterDigitUnderscore(text) }
    guard isASCIILetter(first) else { return false }
    while let byte = utf8.next() {
      if byte >= 0x80 { return unicodeLetterDigitUnderscore(text) }
      guard isASCIILetter(byte) || isASCIIDigit(byte) || byte == 0x5F else { return false }
    }
    return true
  }

  /// Whether `text` starts with a letter (of any script), as names must.
  @inlinable
  package static func startsWithLetter(_ text: String) -> Bool {
    guard let first = text.utf8.first else { return false }
    return first < 0x80 ? isASCIILetter(first) : text.first?.isLetter ?? false
  }

  @usableFromInline
  package static func unicodeLetterDigitUnderscore(_ text: String) -> Bool {
    guard startsWithLetter(text) else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }

  /// Whether every byte is one of `[a-z0-9_]` (Batch's naming rule); empty text passes.
  @inlinable
  package static func isLowercaseDigitUnderscore(_ text: String) -> Bool {
    for byte in text.utf8 where !((byte >= 0x61 && byte <= 0x7A) || isASCIIDigit(byte) || byte == 0x5F) {
      return false
    }
    return true
  }

  /// Length as NSString/Java count it (UTF-16 code units), the unit SDK limits are written in.
  @inlinable
  package static func length(_ text: String) -> Int { text.utf16.count }

  /// A value shortened for a violation message.
  @inlinable
  package static func excerpt(_ text: String, limit: Int = 48) -> String {
    text.count <= limit ? text : String(text.prefix(limit)) + "…"
  }
}
