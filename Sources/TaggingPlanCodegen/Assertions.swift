import TaggingPlan

/// Debug-build checks (`assert`) of the constraints a Swift type does not carry: string lengths,
/// patterns and formats (through the taxonomy file's format helper, `formats`), number ranges and
/// the values of a number or mixed `enum`.
enum Assertions {
  /// The format a `String` field is checked for, if any.
  static func checkedFormat(_ field: Field) -> ValueFormat? {
    guard case .string = field.shape, FormatPatterns.checks(field.rule.format) else { return nil }
    return field.rule.format
  }

  /// The `assert` lines for `field`, whose value is `expression` (unwrapped).
  static func lines(for field: Field, value expression: String, owner: String, formats: String) -> [String] {
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
      if let format = checkedFormat(field) {
        lines.append(
          "assert(\(formats).accepts(\(expression), \(SwiftLiteral.string(format.rawValue))), \(what))")
      }
    case .int, .double:
      let number = field.shape.typeName == "Int" ? "Double(\(expression))" : expression
      if let low = rule.minimum { lines.append("assert(\(number) >= \(SwiftLiteral.double(low)), \(what))") }
      if let high = rule.maximum {
        lines.append("assert(\(number) <= \(SwiftLiteral.double(high)), \(what))")
      }
      if let allowed = rule.allowed {
        let values = allowed.compactMap {
          field.shape.typeName == "Int"
            ? $0.intValue.map(String.init) : $0.doubleValue.map(SwiftLiteral.double)
        }
        lines.append("assert([\(values.joined(separator: ", "))].contains(\(expression)), \(what))")
      }
    case .any:
      if let allowed = rule.allowed, !allowed.isEmpty {
        let values = allowed.map(SwiftLiteral.value).joined(separator: ", ")
        lines.append("assert(([\(values)] as [PropertyValue]).contains(\(expression)), \(what))")
      }
    default:
      break
    }
    return lines
  }

  /// The lines checking every field of `fields` (optional ones when present).
  static func lines(for fields: [Field], owner: String, formats: String) -> [String] {
    var out: [String] = []
    for field in fields where field.constant == nil {
      let checks = lines(for: field, value: field.name, owner: owner, formats: formats)
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
