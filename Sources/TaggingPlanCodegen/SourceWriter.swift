/// Lines of Swift source with indentation, appended in order. Every line passes through
/// ``SourceText/visible(_:)``: plan text in a comment cannot end its line, and a scalar that slipped
/// into code unescaped fails to compile instead of changing what compiles.
struct SourceWriter {
  private(set) var lines: [String] = []
  private var depth = 0

  mutating func line(_ text: String = "") {
    lines.append(text.isEmpty ? "" : String(repeating: "  ", count: depth) + SourceText.visible(text))
  }

  mutating func lines(_ texts: [String]) {
    for text in texts { line(text) }
  }

  /// `/// text` lines.
  mutating func doc(_ texts: String...) {
    for text in texts { line(text.isEmpty ? "///" : "/// " + text) }
  }

  /// A `// text` line.
  mutating func comment(_ text: String) {
    line("// " + text)
  }

  /// `opening {`, the body indented, `}`.
  mutating func block(_ opening: String, _ body: (inout SourceWriter) -> Void) {
    line(opening + " {")
    depth += 1
    body(&self)
    depth -= 1
    line("}")
  }

  /// `opening {`, the cases at the same depth (swift-format's style), `}`.
  mutating func switchBlock(_ opening: String, _ body: (inout SourceWriter) -> Void) {
    line(opening + " {")
    body(&self)
    line("}")
  }

  /// Body lines indented one level deeper, without braces (a `case` body).
  mutating func indented(_ body: (inout SourceWriter) -> Void) {
    depth += 1
    body(&self)
    depth -= 1
  }

  /// The source text, ending with a newline.
  var text: String { lines.joined(separator: "\n") + "\n" }
}
