import CNcursesw

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Column widths of text as a terminal draws it: `wcwidth`, not `String.count` (emoji and CJK take
/// two columns, combining marks none).
public enum DisplayWidth {
  /// `wcwidth` needs a UTF-8 `LC_CTYPE`; when the process has none (a test runner started with the C
  /// locale), `C.UTF-8` is selected for the character type only.
  private static let localeReady: Bool = {
    if tagscope_codeset_is_utf8() != 0 { return true }
    return setlocale(LC_CTYPE, "C.UTF-8") != nil
  }()

  /// Columns taken by one scalar (0 for combining and format characters, 2 for wide ones).
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value >= 0x20 && value < 0x7F { return 1 }
    _ = localeReady
    let width = Int(tagscope_wcwidth(value))
    return width < 0 ? 1 : width
  }

  /// Columns taken by one grapheme: its first scalar's width, as ncurses and the terminal advance.
  public static func of(_ character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    return of(first)
  }

  /// Columns taken by `text`.
  public static func of(_ text: String) -> Int {
    var total = 0
    for character in text { total += of(character) }
    return total
  }
}
