/// A foreground colour of the eight-colour terminal palette (plus the terminal's default).
public enum Color: UInt8, Sendable, Hashable, CaseIterable {
  case normal
  case red
  case green
  case yellow
  case blue
  case magenta
  case cyan
  case gray
}

/// How a cell is drawn: colour and attributes. With `NO_COLOR` the backend keeps only the attributes.
public struct Style: Sendable, Hashable {
  public var color: Color
  public var bold: Bool
  public var dim: Bool
  public var reverse: Bool
  public var underline: Bool

  /// A style.
  public init(
    color: Color = .normal, bold: Bool = false, dim: Bool = false, reverse: Bool = false,
    underline: Bool = false
  ) {
    self.color = color
    self.bold = bold
    self.dim = dim
    self.reverse = reverse
    self.underline = underline
  }

  /// The terminal's default look.
  public static let plain = Style()
  /// Bold text.
  public static let bold = Style(bold: true)
  /// Dimmed text (secondary information).
  public static let dim = Style(dim: true)
  /// The selected row.
  public static let selected = Style(reverse: true)
  /// Errors and rule violations.
  public static let error = Style(color: .red, bold: true)
  /// Warnings (blocked, dropped).
  public static let warning = Style(color: .yellow)
  /// Success (sent).
  public static let success = Style(color: .green)
  /// Pane borders.
  public static let border = Style(color: .gray)
  /// The focused pane's title.
  public static let focusedTitle = Style(color: .cyan, bold: true, reverse: true)
  /// Other pane titles.
  public static let title = Style(color: .cyan, bold: true)
  /// Key names in the footer and help.
  public static let key = Style(color: .cyan, bold: true)

  /// This style with `color` replaced.
  func with(color: Color) -> Style {
    var copy = self
    copy.color = color
    return copy
  }

  /// This style drawn in reverse video (for the selected row).
  func reversed() -> Style {
    var copy = self
    copy.reverse = true
    return copy
  }
}
