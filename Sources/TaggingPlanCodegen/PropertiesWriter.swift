/// The body that turns fields into ``Properties``: debug checks, then the literal, optional fields
/// added when present.
enum PropertiesWriter {
  /// Lines ending in `return <wrap>(properties)`; `wrap` is `""` or `.object`.
  /// `formats` is the taxonomy file's format helper.
  static func body(
    _ fields: [Field], owner: String, wrap: String, formats: String, into writer: inout SourceWriter
  ) {
    writer.lines(Assertions.lines(for: fields, owner: owner, formats: formats))
    var pairs: [String] = []
    var optional: [Field] = []
    for field in fields {
      if let constant = field.constant {
        pairs.append("\(SwiftLiteral.string(field.key)): \(SwiftLiteral.value(constant))")
      } else if field.isOptional {
        optional.append(field)
      } else if field.isNullable {
        pairs.append(
          "\(SwiftLiteral.string(field.key)): \(field.name).map { \(field.shape.valueExpression("$0")) } ?? .null"
        )
      } else {
        pairs.append("\(SwiftLiteral.string(field.key)): \(field.shape.valueExpression(field.name))")
      }
    }
    let open = wrap.isEmpty ? "" : wrap + "("
    let close = wrap.isEmpty ? "" : ")"
    if optional.isEmpty {
      literal(pairs, prefix: "return \(open)", suffix: close, into: &writer)
      return
    }
    // The local is `properties` unless a field has that name.
    let local = fields.contains { $0.label == "properties" } ? "_properties" : "properties"
    literal(pairs, prefix: "var \(local): Properties = ", suffix: "", into: &writer)
    for field in optional {
      writer.block("if let \(field.name)") {
        $0.line("\(local)[\(SwiftLiteral.string(field.key))] = \(field.shape.valueExpression(field.name))")
      }
    }
    writer.line("return \(open)\(local)\(close)")
  }

  /// `prefix[…]suffix`, one pair a line when there are several.
  static func literal(_ pairs: [String], prefix: String, suffix: String, into writer: inout SourceWriter) {
    switch pairs.count {
    case 0: writer.line(prefix + "[:]" + suffix)
    case 1: writer.line(prefix + "[" + pairs[0] + "]" + suffix)
    default:
      writer.line(prefix + "[")
      writer.indented { inner in
        for pair in pairs { inner.line(pair + ",") }
      }
      writer.line("]" + suffix)
    }
  }
}
