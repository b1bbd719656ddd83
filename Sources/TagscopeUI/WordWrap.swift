/// Breaks text into lines of at most a width, between words, so what the help and the filter's
/// errors say is never cut short on a narrow terminal. A word wider than the line is the only
/// thing broken, at the width.
enum WordWrap {
  /// The lines of `text` (sanitized) at most `width` columns wide; at least one line.
  static func lines(_ text: SafeText, width: Int) -> [SafeText] {
    guard width > 0, text.width > width else { return [text] }
    var lines: [SafeText] = []
    var line = ""
    var lineWidth = 0
    func flush() {
      lines.append(Sanitizer.clean(line, limit: .max))
      line = ""
      lineWidth = 0
    }
    for word in text.text.split(separator: " ", omittingEmptySubsequences: true) {
      var rest = Substring(word)
      var restWidth = DisplayWidth.of(String(rest))
      if lineWidth > 0 && lineWidth + 1 + restWidth > width { flush() }
      while restWidth > width {  // a word longer than a line: broken at the width
        if lineWidth > 0 { flush() }
        var head = ""
        var headWidth = 0
        while let first = rest.first, headWidth + DisplayWidth.of(first) <= width {
          head.append(first)
          headWidth += DisplayWidth.of(first)
          rest = rest.dropFirst()
        }
        if head.isEmpty { break }
        line = head
        lineWidth = headWidth
        flush()
        restWidth = DisplayWidth.of(String(rest))
      }
      guard !rest.isEmpty else { continue }
      if lineWidth > 0 {
        line += " "
        lineWidth += 1
      }
      line += rest
      lineWidth += restWidth
    }
    if lineWidth > 0 || lines.isEmpty { flush() }
    return lines
  }
}
