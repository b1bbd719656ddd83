extension PIIScan {
  /// Credentials: JSON Web Tokens (three base64url segments, the first two starting `eyJ`, a
  /// JSON object's first bytes, each of 10 or more characters) and `Bearer` (16 or more token
  /// characters) or `Basic` (8 or more base64 characters) authorization values, the credential only.
  mutating func findTokens() {
    var index = 0
    while index < count {
      steps += 1
      let byte = text[index]
      guard index == 0 || !PIIBytes.isBase64URL(text[index - 1]) else {
        index += 1
        continue
      }
      if byte == UInt8(ascii: "e"), let end = jwt(from: index) {
        add(.token, index..<end)
        index = end
      } else if byte | 0x20 == UInt8(ascii: "b"), let credential = authorization(from: index) {
        add(.token, credential)
        index = credential.upperBound
      } else {
        index += 1
      }
    }
  }

  /// The end of a JWT starting at `start`, if one does.
  mutating func jwt(from start: Int) -> Int? {
    var index = start
    for segment in 0..<3 {
      let segmentStart = index
      if segment < 2 {
        guard at(index) == UInt8(ascii: "e"), at(index + 1) == UInt8(ascii: "y"),
          at(index + 2) == UInt8(ascii: "J")
        else { return nil }
      }
      while index < count, PIIBytes.isBase64URL(text[index]) {
        index += 1
        steps += 1
      }
      if segment < 2 {
        guard index - segmentStart >= 10, at(index) == UInt8(ascii: ".") else { return nil }
        index += 1
      }
    }
    guard at(index) != UInt8(ascii: ".") else { return nil }
    return index
  }

  /// The credential of a `Bearer …` or `Basic …` value starting at `start`, if one does.
  mutating func authorization(from start: Int) -> Range<Int>? {
    let words: [(String, Int)] = [("bearer ", 16), ("basic ", 8)]
    for (word, minimum) in words {
      var index = start
      var matched = true
      for expected in word.utf8 {
        guard PIIBytes.lower(at(index)) == expected else {
          matched = false
          break
        }
        index += 1
      }
      guard matched else { continue }
      while at(index) == UInt8(ascii: " ") { index += 1 }
      let credentialStart = index
      while index < count,
        PIIBytes.isBase64URL(text[index])
          || [UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/")]
            .contains(text[index])
      {
        index += 1
        steps += 1
      }
      while at(index) == UInt8(ascii: "=") { index += 1 }
      guard index - credentialStart >= minimum else { return nil }
      return credentialStart..<index
    }
    return nil
  }
}
