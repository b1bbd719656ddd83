/// Writes strings for YAML 1.1 readers (Yams, PyYAML): plain when that reads back as the same
/// string, double-quoted otherwise. The one writer of plan text: `plan infer`'s drafts, the
/// debugger's added entries and `plan import`'s catalogues.
public enum YAMLText {
  /// Plain scalars YAML 1.1 would read as booleans or null.
  private static let keywords: Set<String> = [
    "true", "false", "yes", "no", "on", "off", "y", "n", "null", "none",
  ]

  /// `text` plain when it is made of ASCII letters, digits, `_`, `-`, `.`, `/` and single inner
  /// spaces and starts with a letter or `_` (so no number, date, boolean, null or indicator), else
  /// double-quoted.
  public static func scalar(_ text: String) -> String {
    isPlain(text) ? text : doubleQuoted(text)
  }

  /// The longest key written as a simple key (`name:`): YAML readers (libyaml, so Yams) refuse a
  /// simple key past 1,024 characters; a longer one is written as an explicit key (`? name`).
  public static let simpleKeyLimit = 1_000

  /// `text` as a block mapping key at `indent`, up to and including its `:` — `name:`, or for a
  /// key past ``simpleKeyLimit`` characters `? "name"`, a line break, `indent` and `:` — so that
  /// any name a recording holds reads back.
  public static func key(_ text: String, indent: String) -> String {
    let written = scalar(text)
    guard written.unicodeScalars.count > simpleKeyLimit else { return indent + written + ":" }
    return indent + "? " + written + "\n" + indent + ":"
  }

  /// Whether `text` can be written plain (see ``scalar(_:)``).
  public static func isPlain(_ text: String) -> Bool {
    // ASCII only, so byte tests (a Unicode property lookup per character was most of a large
    // import's writing time).
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
    let bytes = text.utf8
    guard let first = bytes.first, let last = bytes.last, isLetter(first) || first == 95, last != 32,
      bytes.count > 5 || !keywords.contains(text.lowercased())
    else { return false }
    var previous: UInt8 = 95
    for byte in bytes {
      // Letters, digits, `_`, `-`, `.`, `/` and single spaces.
      let allowed =
        isLetter(byte) || (byte >= 48 && byte <= 57) || byte == 95 || byte == 45 || byte == 46 || byte == 47
        || byte == 32
      guard allowed, !(byte == 32 && previous == 32) else { return false }
      previous = byte
    }
    return true
  }

  /// `text` in double quotes with YAML escapes.
  public static func doubleQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if isHidden(scalar) {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// `text` on one line for a `#` comment: control characters become `?`.
  public static func comment(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map {
          isHidden($0) ? "?" : $0
        }))
  }

  /// Whether `scalar` is escaped in a quoted scalar (`?` in a comment): what YAML does not allow
  /// unescaped (controls, U+FEFF, U+FFFE, U+FFFF) and what would make the file read differently
  /// from what it holds to a person reviewing it (line and paragraph separators, bidi overrides
  /// and isolates, zero-width characters). ASCII is decided without a Unicode property lookup.
  public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
    if scalar.value == 0xFFFE || scalar.value == 0xFFFF { return true }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate: return true
    default: return false
    }
  }
}
