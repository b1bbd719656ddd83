import TagscopeRecording
import TagscopeTimeline

/// Text that is safe to put on the terminal: no control, bidi, or invisible characters, with its
/// display width computed once.
///
/// The only way to make one from data is ``Sanitizer/clean(_:limit:)``; literals in the UI's own
/// code are trusted. The grid accepts nothing else, so untrusted text cannot reach the screen raw.
public struct SafeText: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The sanitized text.
  public let text: String
  /// Its width in terminal columns.
  public let width: Int

  fileprivate init(sanitized text: String, width: Int) {
    self.text = text
    self.width = width
  }

  /// Trusted text written in the UI's source code.
  public init(stringLiteral value: StaticString) {
    self = Sanitizer.clean(value.description)
  }

  /// Empty text.
  public static let empty = SafeText(sanitized: "", width: 0)

  public var description: String { text }

  /// This text followed by `other`.
  public static func + (lhs: SafeText, rhs: SafeText) -> SafeText {
    SafeText(sanitized: lhs.text + rhs.text, width: lhs.width + rhs.width)
  }

  /// Whether the text is empty.
  public var isEmpty: Bool { text.isEmpty }
}

/// Makes untrusted strings displayable: every value from a record passes through here once, when it
/// enters the display model.
///
/// Control characters (C0 including ESC and newlines, DEL, C1), bidi overrides and isolates,
/// zero-width and other invisible format characters become visible escapes (`\e`, `\n`, `\x07`,
/// `<U+202E>`), so a value can neither act on the terminal (title, clipboard, colours) nor break the
/// layout.
public enum Sanitizer {
  /// Scalars kept at most, so a huge value cannot stall a frame; longer text ends with `…`.
  public static let defaultLimit = 2_000

  /// `raw` made safe for display.
  public static func clean(_ raw: String, limit: Int = defaultLimit) -> SafeText {
    if raw.utf8.count <= limit && raw.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      return SafeText(sanitized: raw, width: raw.utf8.count)
    }
    var out = String.UnicodeScalarView()
    var kept = 0
    for scalar in raw.unicodeScalars {
      if kept >= limit {
        out.append("…")
        break
      }
      kept += 1
      if let escape = escape(scalar) {
        out.append(contentsOf: escape.unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    let text = String(out)
    return SafeText(sanitized: text, width: DisplayWidth.of(text))
  }

  /// Whether `scalar` must not reach the terminal as is.
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { escape(scalar) != nil }

  /// The visible replacement of an unsafe scalar (``TerminalText``'s table), or `nil` for a safe one.
  static func escape(_ scalar: Unicode.Scalar) -> String? { TerminalText.escape(scalar) }
}
