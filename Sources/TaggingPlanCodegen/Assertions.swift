import TaggingPlan

/// Debug-build checks (`assert`) of the constraints a Swift type does not carry: string lengths
/// and patterns, number ranges.
enum Assertions {
  /// The `assert` lines for `field`, whose value is `expression` (unwrapped).
  static func lines(for field: Field, value expression: String, owner: String) -> [String] {
    let rule = field.rule
    let what = SwiftLiteral.string("\(owner): \(field.key)")
    var lines: [String] = []
    switch field.shape {
    case .string:
      if let low = rule.minLength {
        lines.append("assert(\(expression).unicodeScalars.count >= \(low), \(what))")
      }
      if let high = rule.maxLength {
        lines.append("assert(\(expression).unicodeScalars.count <= \(high), \(what))")
      }
      if let pattern = rule.pattern {
        lines.append(
          "assert((try? Regex(\(SwiftLiteral.string(pattern.source)))).map { \(expression).contains($0) } ?? true, \(what))"
        )
      }
    case .int, .double:
      let number = field.shape.typeName == "Int" ? "Double(\(expression))" : expression
      if let low = rule.minimum { lines.append("assert(\(number) >= \(SwiftLiteral.double(low)), \(what))") }
      if let high = rule.maximum {
        lines.append("assert(\(number) <= \(SwiftLiteral.double(high)), \(what))")
      }
    default:
      break
    }
    return lines
  }

  /// The lines checking every field of `fields` (optional ones when present).
  static func lines(for fields: [Field], owner: String) -> [String] {
    var out: [String] = []
    for field in fields where field.constant == nil {
      let checks = lines(for: field, value: field.name, owner: owner)
      guard !checks.isEmpty else { continue }
      if field.isSwiftOptional {
        out.append("if let \(field.name) {")
        out.append(contentsOf: checks.map { "  " + $0 })
        out.append("}")
      } else {
        out.append(contentsOf: checks)
      }
    }
    return out
  }
}
