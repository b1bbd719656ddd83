/// A `tagscope help TOPIC` page as terminal text: headings in capitals, paragraphs, and tables whose
/// first column is padded so the second lines up.
struct HelpPage {
  private(set) var text = ""

  init(_ title: String, _ introduction: String) {
    text = title.uppercased() + "\n\n" + Self.wrapped(introduction) + "\n"
  }

  /// `paragraphs` with each line longer than `width` broken at spaces; indented lines (code) kept.
  static func wrapped(_ paragraphs: String, width: Int = 100) -> String {
    var lines: [String] = []
    for line in paragraphs.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.count > width, !line.hasPrefix(" ") else {
        lines.append(String(line))
        continue
      }
      var current = ""
      for word in line.split(separator: " ") {
        if !current.isEmpty, current.count + 1 + word.count > width {
          lines.append(current)
          current = ""
        }
        current += (current.isEmpty ? "" : " ") + word
      }
      lines.append(current)
    }
    return lines.joined(separator: "\n")
  }

  /// A heading and, below it, `rows` as two aligned columns.
  mutating func table(_ heading: String, _ rows: [(String, String)], note: String? = nil) {
    text += "\n" + heading.uppercased() + "\n"
    if let note { text += Self.wrapped(note) + "\n" }
    text += "\n"
    let width = min(28, rows.map { $0.0.count }.max() ?? 0)
    for (first, second) in rows {
      let padding = String(repeating: " ", count: max(1, width - first.count + 2))
      text +=
        "  " + first + (first.count > width ? "\n  " + String(repeating: " ", count: width + 2) : padding)
        + second + "\n"
    }
  }

  /// A heading and a paragraph (or several, separated by blank lines).
  mutating func section(_ heading: String, _ body: String) {
    text += "\n" + heading.uppercased() + "\n\n" + Self.wrapped(body) + "\n"
  }
}
