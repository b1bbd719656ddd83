/// Makes untrusted text safe to print on a terminal: control characters, bidi overrides and
/// zero-width characters are shown as `\u{…}` escapes (newline and tab as `\n`, `\t`).
public enum TerminalText {
  /// `text` with every character that could move the cursor, reorder text or hide itself escaped.
  public static func sanitize(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: out += "\\n"
      case 0x09: out += "\\t"
      case 0x0D: out += "\\r"
      case 0x00..<0x20, 0x7F..<0xA0, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0x2028,
        0x2029:
        out += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
