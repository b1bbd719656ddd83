extension PIIScan {
  /// File name extensions that follow an `@` in asset names (`icon@2x.png`), not top-level domains.
  static let fileExtensions: Set<String> = [
    "png", "jpg", "jpeg", "gif", "svg", "webp", "heic", "pdf", "json", "txt", "mp3", "mp4", "m4a", "mov",
    "wav", "js", "css", "html", "swift", "zip",
  ]

  /// Email addresses: a local part of letters, digits and `. _ % + -` (not starting or ending with
  /// a dot), `@`, then a domain of two or more labels (letters, digits, inner hyphens) whose last
  /// label is two or more letters and not a file extension (`icon@2x.png`, `pkg@1.2.3` are not
  /// addresses). Each byte is looked at a bounded number of times: the local part never reaches
  /// back past the previous `@` or match.
  mutating func findEmails() {
    var floor = 0
    var index = 0
    while index < count {
      steps += 1
      guard text[index] == UInt8(ascii: "@") else {
        index += 1
        continue
      }
      let at = index
      var start = at
      while start > floor, Self.isLocal(text[start - 1]) {
        start -= 1
        steps += 1
      }
      while start < at, text[start] == UInt8(ascii: ".") { start += 1 }
      var end = at + 1
      while end < count,
        PIIBytes.isAlnum(text[end]) || text[end] == UInt8(ascii: "-") || text[end] == UInt8(ascii: ".")
      {
        end += 1
        steps += 1
      }
      while end > at + 1, text[end - 1] == UInt8(ascii: ".") || text[end - 1] == UInt8(ascii: "-") {
        end -= 1
      }
      if start < at, at - start <= 64, text[at - 1] != UInt8(ascii: "."), validDomain(at + 1..<end) {
        add(.email, start..<end)
        floor = end
        index = end
      } else {
        floor = at + 1
        index = at + 1
      }
    }
  }

  static func isLocal(_ byte: UInt8) -> Bool {
    PIIBytes.isAlnum(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "%")
      || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
  }

  /// Labels of 1 to 63 letters, digits and inner hyphens, at least two, the last of 2 to 24 letters
  /// and no file extension.
  func validDomain(_ range: Range<Int>) -> Bool {
    guard range.count >= 4, range.count <= 253 else { return false }
    var labels = 0
    var labelStart = range.lowerBound
    var index = range.lowerBound
    while index <= range.upperBound {
      if index == range.upperBound || text[index] == UInt8(ascii: ".") {
        let length = index - labelStart
        guard length >= 1, length <= 63, text[labelStart] != UInt8(ascii: "-"),
          text[index - 1] != UInt8(ascii: "-")
        else { return false }
        labels += 1
        if index == range.upperBound {
          guard labels >= 2, length >= 2, length <= 24 else { return false }
          var word = ""
          for position in labelStart..<index {
            guard PIIBytes.isAlpha(text[position]) else { return false }
            word.unicodeScalars.append(Unicode.Scalar(PIIBytes.lower(text[position])))
          }
          return !Self.fileExtensions.contains(word)
        }
        labelStart = index + 1
      }
      index += 1
    }
    return false
  }
}
