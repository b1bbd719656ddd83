/// What of an untrusted value may reach a terminal: control characters (ESC, C1, DEL), line breaks,
/// bidi overrides and isolates, zero-width and other invisible format characters become visible
/// escapes (`\e`, `\n`, `\x07`, `<U+202E>`), so a value can neither act on the terminal (title,
/// clipboard, colours) nor break a line or a layout.
///
/// One table for everything tagscope prints: the debugger's display model, `listen --headless`, the
/// text reports and every message on standard error.
public enum TerminalText {
  /// `text` with every unsafe scalar replaced by its visible escape.
  public static func sanitize(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if let escape = escape(scalar) {
        out.append(contentsOf: escape.unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// Each line of `text` sanitized, its line breaks kept: for messages and reports of several lines.
  public static func sanitizeLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { sanitize(String($0)) }
      .joined(separator: "\n")
  }

  /// The visible replacement of an unsafe scalar, or `nil` for a safe one.
  public static func escape(_ scalar: Unicode.Scalar) -> String? {
    let value = scalar.value
    switch value {
    case 0x20..<0x7F: return nil
    case 0x1B: return "\\e"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x09: return "\\t"
    case 0x00..<0x20, 0x7F: return "\\x" + hex(value, digits: 2)
    case 0x80..<0xA0, 0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F,
      0x2028...0x202E, 0x2060...0x206F, 0x3164, 0xFEFF, 0xFFA0, 0xFFF0...0xFFFB, 0x1D173...0x1D17A,
      0xE0000...0xE0FFF:
      return "<U+" + hex(value, digits: 4) + ">"
    default:
      switch scalar.properties.generalCategory {
      case .unassigned, .surrogate, .privateUse, .format, .lineSeparator, .paragraphSeparator, .control:
        return "<U+" + hex(value, digits: 4) + ">"
      default: return nil
      }
    }
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
