/// Writes the taxonomy file: the `Taxonomy`, one enum per kind of tag with one case per planned
/// tag, and the enums and structs its properties need.
struct TaxonomyWriter {
  var model: TaxonomyModel
  /// `public ` or empty (internal).
  var access: String

  func write(into writer: inout SourceWriter) {
    writer.doc("The tag vocabulary of plan \(model.plan.title), one type per kind of tag it plans.")
    if let description = model.plan.description {
      writer.doc("", Documentation.oneLine(description))
    }
    writer.block("\(access)enum \(model.taxonomyName): Taxonomy") { body in
      for type in model.tagTypes {
        body.line("\(access)typealias \(type.role) = \(type.name)")
      }
    }
    for type in model.tagTypes {
      writer.line()
      write(type, into: &writer)
    }
    for declaration in model.enums {
      writer.line()
      write(declaration, into: &writer)
    }
    for declaration in model.structs {
      writer.line()
      write(declaration, into: &writer)
    }
    FormatCheckWriter(model: model).write(into: &writer)
  }

  private func write(_ type: TagType, into writer: inout SourceWriter) {
    writer.doc(type.documentation)
    writer.block("\(access)enum \(type.name): AnalyticsTag, Hashable") { body in
      for (index, tag) in type.cases.enumerated() {
        if index > 0 { body.line() }
        body.doc(tag.documentation)
        if !tag.journeyLines.isEmpty {
          body.doc("")
          for line in tag.journeyLines { body.doc(line) }
        }
        let parameters = tag.parameters
        if !parameters.isEmpty {
          body.doc("", "- Parameters:")
          for field in parameters {
            body.doc("  - \(field.label): \(Documentation.parameter(field))")
          }
          body.line("case \(tag.name)(\(parameters.map(\.parameter).joined(separator: ", ")))")
        } else {
          body.line("case \(tag.name)")
        }
      }
      body.line()
      body.doc("The tag's name in the plan.")
      body.block("\(access)var name: String") { getter in
        Self.dispatch(type.cases, into: &getter, fallback: "\"\"") { tag, pattern, inner in
          _ = pattern
          inner.line("return \(SwiftLiteral.string(tag.tagName))")
        } pattern: {
          Self.pattern($0, binding: [])
        }
      }
      if type.cases.contains(where: { !$0.fields.isEmpty }) {
        body.line()
        body.doc("The tag's properties, as the plan names them; constraints are checked in debug builds.")
        body.block("\(access)var properties: Properties") { getter in
          Self.dispatch(type.cases, into: &getter, fallback: "[:]") { tag, _, inner in
            PropertiesWriter.body(
              tag.fields, owner: tag.tagName, wrap: "", formats: model.formatsName, into: &inner)
          } pattern: {
            Self.pattern($0, binding: $0.fields.filter { $0.constant == nil })
          }
        }
      }
      if type.hasExtras {
        body.line()
        body.doc(
          "What providers need besides the properties (parameters the plan names that no property holds).")
        body.block("\(access)var providerParameters: Properties") { getter in
          getter.switchBlock("switch self") { cases in
            for tag in type.cases where !tag.extras.isEmpty {
              cases.line(Self.pattern(tag, binding: tag.extras) + ":")
              cases.indented { inner in
                PropertiesWriter.body(
                  tag.extras, owner: tag.tagName, wrap: "", formats: model.formatsName, into: &inner)
              }
            }
            if type.cases.contains(where: { $0.extras.isEmpty }) {
              cases.line("default:")
              cases.indented { $0.line("return [:]") }
            }
          }
        }
      }
    }
  }

  /// Above this many cases, a tag type's members test its cases one by one (`if case`) rather than
  /// in a `switch`: Swift gives up proving a switch over a thousand cases with payloads exhaustive.
  static let switchLimit = 128

  /// One body per case: a `switch` over `self`, or for a very large type `if case … = self`
  /// tests ending in `return fallback` (never reached).
  static func dispatch(
    _ cases: [TagCase], into writer: inout SourceWriter, fallback: String,
    body: (TagCase, String, inout SourceWriter) -> Void, pattern: (TagCase) -> String
  ) {
    if cases.count <= switchLimit {
      writer.switchBlock("switch self") { switchBody in
        for tag in cases {
          let text = pattern(tag)
          switchBody.line(text + ":")
          switchBody.indented { body(tag, text, &$0) }
        }
      }
      return
    }
    for tag in cases {
      let text = pattern(tag)
      writer.block("if \(text) = self") { body(tag, text, &$0) }
    }
    writer.line("return \(fallback)")
  }

  /// `case .playPodcast(let podcastId, _)`: the case, binding `binding` and skipping the rest.
  static func pattern(_ tag: TagCase, binding: [Field]) -> String {
    let parameters = tag.parameters
    guard !parameters.isEmpty else { return "case .\(tag.name)" }
    if binding.isEmpty { return "case .\(tag.name)" }
    let bound = Set(binding.map(\.name))
    let parts = parameters.map { bound.contains($0.name) ? "let \($0.name)" : "_" }
    return "case .\(tag.name)(\(parts.joined(separator: ", ")))"
  }

  private func write(_ declaration: EnumDeclaration, into writer: inout SourceWriter) {
    writer.doc(declaration.documentation)
    writer.block("\(access)enum \(declaration.name): String, Sendable, Hashable, CaseIterable") { body in
      for item in declaration.cases {
        if NameScope.unescaped(item.name) == item.value {
          body.line("case \(item.name)")
        } else {
          body.line("case \(item.name) = \(SwiftLiteral.string(item.value))")
        }
      }
    }
  }

  private func write(_ declaration: StructDeclaration, into writer: inout SourceWriter) {
    writer.doc(declaration.documentation)
    writer.block("\(access)struct \(declaration.name): Sendable, Hashable, PropertyValueConvertible") {
      body in
      let stored = declaration.fields.filter { $0.constant == nil }
      for field in stored {
        body.doc(Documentation.parameter(field))
        body.line("\(access)var \(field.name): \(field.shape.typeName)\(field.isSwiftOptional ? "?" : "")")
      }
      if !stored.isEmpty { body.line() }
      body.doc("A value from its fields.")
      body.block("\(access)init(\(stored.map(\.parameter).joined(separator: ", ")))") { initializer in
        for field in stored {
          initializer.line("self.\(field.name) = \(field.name)")
        }
      }
      body.line()
      body.doc("The object as a property value; constraints are checked in debug builds.")
      body.block("\(access)var propertyValue: PropertyValue") { getter in
        PropertiesWriter.body(
          declaration.fields, owner: declaration.name, wrap: ".object", formats: model.formatsName,
          into: &getter)
      }
    }
  }
}
