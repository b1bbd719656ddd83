import TaggingPlan

/// Writes, once per taxonomy file, the helper its debug-build format checks call: the regular
/// expression of each format the plan's string fields name (``FormatPatterns``), Foundation only.
struct FormatCheckWriter {
  var model: TaxonomyModel

  /// The formats the plan's `String` fields are checked for, in ``ValueFormat``'s order.
  var formats: [ValueFormat] {
    var fields = model.structs.flatMap(\.fields)
    for call in model.adapterCalls { fields += call.fields + call.extras }
    for type in model.tagTypes {
      for tag in type.cases { fields += tag.fields + tag.extras }
    }
    let used = Set(fields.compactMap { Assertions.checkedFormat($0) })
    return ValueFormat.allCases.filter(used.contains)
  }

  func write(into writer: inout SourceWriter) {
    let formats = self.formats
    guard !formats.isEmpty else { return }
    writer.line()
    writer.doc(
      "The string formats plan \(model.plan.title) names, checked in debug builds as `tagscope validate`",
      "checks them.")
    writer.block("enum \(model.formatsName)") { body in
      body.doc("Whether `text` has `format` (`regex`: compiles as a regular expression).")
      body.block("static func accepts(_ text: String, _ format: String) -> Bool") { function in
        if formats.contains(.regex) {
          function.line("if format == \"regex\" { return (try? Regex(text)) != nil }")
        }
        function.line(
          "guard let pattern = patterns[format], let regex = try? Regex(pattern) else { return true }")
        function.line("return text.wholeMatch(of: regex) != nil")
      }
      body.line()
      body.doc("The regular expression a whole value of each format matches.")
      let pairs = formats.compactMap { format in
        FormatPatterns.patterns[format].map {
          "\(SwiftLiteral.string(format.rawValue)): \(SwiftLiteral.string($0))"
        }
      }
      PropertiesWriter.literal(
        pairs, prefix: "static let patterns: [String: String] = ", suffix: "", into: &body)
    }
  }
}
