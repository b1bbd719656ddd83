import AnalyticsHub

/// Writes numbers as YAML 1.1 reads them: integers without a fraction, other numbers with a dot
/// and a signed exponent when they need one (`1.0e-07`).
enum NumberText {
  /// A number as written: an integer's digits (past `Int`'s range too), a double as
  /// ``yaml(_:)-(Double)``.
  static func yaml(_ number: PropertyValue) -> String {
    if case .double(let double) = number { return yaml(double) }
    return number.displayText
  }

  static func yaml(_ number: Double) -> String {
    if number.isNaN { return ".nan" }
    if number.isInfinite { return number > 0 ? ".inf" : "-.inf" }
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    var text = "\(number)"
    guard let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
    var mantissa = String(text[..<exponent])
    var power = String(text[text.index(after: exponent)...])
    if !mantissa.contains(".") { mantissa += ".0" }
    if !power.hasPrefix("-") && !power.hasPrefix("+") { power = "+" + power }
    text = mantissa + "e" + power
    return text
  }
}
