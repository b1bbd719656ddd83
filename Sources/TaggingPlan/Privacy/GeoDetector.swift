extension PIIScan {
  /// Precise geolocation pairs in one text: two decimal numbers with at least 4 decimals each
  /// (about 11 m), the first a latitude (-90 to 90), the second a longitude (-180 to 180), split
  /// by a comma, a semicolon, a slash or spaces (`48.85661,2.35222`, `40.7128, -74.0060`). Each
  /// decimal is read once; a pair is the previous one and this one with only a separator between.
  mutating func findGeoPairs() {
    var previous: (range: Range<Int>, value: Double)?
    var index = 0
    while index < count {
      steps += 1
      let byte = text[index]
      let signed = byte == UInt8(ascii: "-") && PIIBytes.isDigit(at(index + 1))
      guard PIIBytes.isDigit(byte) || signed,
        index == 0 || !(PIIBytes.isAlnum(text[index - 1]) || text[index - 1] == UInt8(ascii: "."))
      else {
        index += 1
        continue
      }
      let (end, value) = readDecimal(from: index)
      if let value {
        if let before = previous, Self.isPairSeparator(text[before.range.upperBound..<index]),
          abs(before.value) <= 90, abs(value) <= 180
        {
          add(.geo, before.range.lowerBound..<end)
          previous = nil
        } else {
          previous = (index..<end, value)
        }
      } else {
        previous = nil
      }
      index = max(end, index + 1)
    }
  }

  /// Reads `-?digits.digits` from `start`: where it stops, and its value when it has 1 to 3 whole
  /// digits and at least 4 decimals, with no letter, digit or dot right after.
  mutating func readDecimal(from start: Int) -> (Int, Double?) {
    var index = start
    if text[index] == UInt8(ascii: "-") { index += 1 }
    let wholeStart = index
    while index < count, PIIBytes.isDigit(text[index]) {
      index += 1
      steps += 1
    }
    let whole = index - wholeStart
    guard whole >= 1, whole <= 3, at(index) == UInt8(ascii: "."), PIIBytes.isDigit(at(index + 1)) else {
      return (index, nil)
    }
    index += 1
    let fractionStart = index
    while index < count, PIIBytes.isDigit(text[index]) {
      index += 1
      steps += 1
    }
    guard index - fractionStart >= 4, !PIIBytes.isAlpha(at(index)), at(index) != UInt8(ascii: ".") else {
      return (index, nil)
    }
    var value = 0.0
    var scale = 1.0
    var seenDot = false
    for position in wholeStart..<index {
      let digit = text[position]
      if digit == UInt8(ascii: ".") {
        seenDot = true
        continue
      }
      if seenDot {
        scale /= 10
        value += Double(digit - UInt8(ascii: "0")) * scale
      } else {
        value = value * 10 + Double(digit - UInt8(ascii: "0"))
      }
      if position - wholeStart > 20 { break }
    }
    return (index, text[start] == UInt8(ascii: "-") ? -value : value)
  }

  /// `,`, `;` or `/` with spaces around, or spaces alone (at most 3 bytes).
  static func isPairSeparator(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard !bytes.isEmpty, bytes.count <= 3 else { return false }
    var marks = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: " "): continue
      case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "/"): marks += 1
      default: return false
      }
    }
    return marks <= 1
  }

  /// Whether a number written `text` (a JSON number or a numeric string) has at least 4 decimals
  /// and is within `limit` (90 for a latitude, 180 for a longitude).
  static func isPreciseCoordinate(_ text: UnsafeBufferPointer<UInt8>, limit: Double) -> Bool {
    guard let dot = text.firstIndex(of: UInt8(ascii: ".")), text.count - dot - 1 >= 4 else { return false }
    var digits = 0
    for position in (dot + 1)..<text.count {
      guard PIIBytes.isDigit(text[position]) else { break }
      digits += 1
    }
    guard digits >= 4, let value = Double(String(decoding: text, as: UTF8.self)) else { return false }
    return abs(value) <= limit
  }
}
