import TaggingPlan

/// The one markup escaper, for the XML and HTML reports (JUnit, the HTML page, the diff's JUnit
/// and Markdown): its output is safe as element content and inside quoted attribute values.
package enum MarkupText {
  /// `text` with `&`, `<`, `>`, `"` and `'` as character references and a carriage return as
  /// `&#13;` (so attribute value normalization keeps it). What XML 1.0 cannot carry (C0 controls
  /// other than tab, newline and carriage return; U+FFFE, U+FFFF) becomes U+FFFD, as do characters
  /// that should not act on a reader: DEL and C1 controls, and bidi overrides and isolates, which
  /// would reorder the text around them.
  package static func escape(_ text: String) -> String {
    if text.utf8.allSatisfy(isPlain) { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\r": out += "&#13;"
      case "\n", "\t": out.unicodeScalars.append(scalar)
      default: out.unicodeScalars.append(isReplaced(scalar.value) ? "\u{FFFD}" : scalar)
      }
    }
    return out
  }

  /// An ASCII byte that stands for itself.
  private static func isPlain(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
      && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
  }

  private static func isReplaced(_ value: UInt32) -> Bool {
    value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFFFE || value == 0xFFFF
      || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
  }
}
