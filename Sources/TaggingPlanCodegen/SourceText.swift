/// The one escaper for plan text written into generated source outside string literals: comments
/// and doc comments. A plan's names, descriptions, patterns and versions are untrusted; a line break
/// of any kind (LF, CR, VT, FF, NEL, U+2028, U+2029) would end a `//` comment and turn the rest into
/// code, and bidi or zero-width controls would make the source read differently from what compiles.
/// Such scalars are written as visible `\u{…}` escapes, so every generated line stays one line and
/// shows what the plan holds.
enum SourceText {
  /// `text` with every control, format, separator or unassigned scalar written as `\u{XXXX}`.
  static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if needsEscape(scalar) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `scalar` must not reach a generated line as itself.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: return true
    case .spaceSeparator: return scalar != " "
    default: return false
    }
  }
}
