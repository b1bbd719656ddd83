import TaggingPlan

/// One typed function per catalogue call on the provider's SDK adapter, as Typewriter and Ampli
/// generate, delivering exactly the planned call: for a catalogue-only plan (an imported one)
/// through the mapping of its events; for a plan with sections too, the catalogue calls no section
/// expects, built directly.
struct AdapterFunctionsWriter {
  var model: TaxonomyModel
  var access: String
  var providers: [MappingWriter.ProviderMapping]

  func write(into writer: inout SourceWriter) {
    if model.isCatalogueOnly {
      writeThroughMappings(into: &writer)
    } else {
      writeDirect(into: &writer)
    }
  }

  /// A mixed plan's catalogue-only calls, by provider: each function builds its call from its
  /// parameters (debug-checked as a tag's properties are) and delivers it.
  private func writeDirect(into writer: inout SourceWriter) {
    var ids: [String] = []
    for tag in model.adapterCalls {
      if let provider = tag.catalogueCall?.provider, !ids.contains(provider) { ids.append(provider) }
    }
    for (index, id) in ids.enumerated() {
      let calls = model.adapterCalls.filter { $0.catalogueCall?.provider == id }
      let style = Self.style(id, calls)
      if index > 0 { writer.line() }
      writer.block("extension SDKAdapter where Call == \(style.callType)") { body in
        var scope = NameScope(reserved: ["deliver", "setup"])
        for (position, tag) in calls.enumerated() {
          if position > 0 { body.line() }
          writeFunction(tag, style: style, name: scope.claimBare(tag.label), into: &body)
        }
      }
    }
  }

  private func writeFunction(
    _ tag: TagCase, style: ProviderCallStyle, name: String, into writer: inout SourceWriter
  ) {
    guard let call = tag.catalogueCall?.call else { return }
    writer.doc(
      tag.documentation, "", "Delivers the call \(tag.catalogueCall?.provider ?? "")'s catalogue plans.")
    let parameters = tag.parameters
    if !parameters.isEmpty {
      writer.doc("", "- Parameters:")
      for field in parameters { writer.doc("  - \(field.label): \(Documentation.parameter(field))") }
    }
    let parts = Self.parts(call, identifier: tag.extras.first?.name)
    let expression =
      style.expression(method: call.method, parts: parts)
      ?? ProviderCallStyle.description(method: call.method, parts: parts)
    writer.block("\(access)func \(name)(\(parameters.map(\.parameter).joined(separator: ", "))) throws") {
      body in
      if expression.contains("tagProperties") {
        body.line("let tagProperties: Properties = {")
        body.indented { closure in
          PropertiesWriter.body(
            tag.fields, owner: tag.tagName, wrap: "", formats: model.formatsName, into: &closure)
        }
        body.line("}()")
      }
      body.line("try deliver(\(expression))")
    }
  }

  /// The parts of a catalogue call built from a function's parameters.
  static func parts(_ call: CatalogueCall, identifier: String?) -> ProviderCallStyle.Parts {
    ProviderCallStyle.Parts(
      name: call.name.map(SwiftLiteral.string) ?? identifier, parameters: "tagProperties",
      value: "(tagProperties[\"value\"] ?? .null)", eventType: "TagKind.event.defaultEventType",
      category: "\"app\"")
  }

  /// The provider module's call style when it records every one of `calls`, else ``CallDescription``.
  static func style(_ provider: String, _ calls: [TagCase]) -> ProviderCallStyle {
    guard let known = ProviderCallStyle.known(provider) else { return .described }
    for tag in calls {
      guard let call = tag.catalogueCall?.call else { continue }
      let identifier = tag.extras.first.map { _ in "id" }
      if known.expression(method: call.method, parts: parts(call, identifier: identifier)) == nil {
        return .described
      }
    }
    return known
  }

  private func writeThroughMappings(into writer: inout SourceWriter) {
    guard let events = model.tagTypes.first(where: { $0.section == .events }) else { return }
    for (index, provider) in providers.enumerated() {
      let cases = events.cases.filter { $0.catalogueCall?.provider == provider.id }
      guard !cases.isEmpty else { continue }
      if index > 0 { writer.line() }
      writer.block("extension SDKAdapter where Call == \(provider.style.callType)") { body in
        var scope = NameScope(reserved: ["deliver", "setup"])
        for (position, tag) in cases.enumerated() {
          if position > 0 { body.line() }
          let function = scope.claimBare(tag.label)
          body.doc(tag.documentation, "", "Delivers the call \(provider.id)'s catalogue plans.")
          let parameters = tag.parameters
          if !parameters.isEmpty {
            body.doc("", "- Parameters:")
            for field in parameters { body.doc("  - \(field.label): \(Documentation.parameter(field))") }
          }
          let signature = parameters.map(\.parameter).joined(separator: ", ")
          body.block("\(access)func \(function)(\(signature)) throws") { inner in
            let arguments = parameters.map { "\($0.argumentLabel): \($0.name)" }.joined(separator: ", ")
            let value = parameters.isEmpty ? ".\(tag.name)" : ".\(tag.name)(\(arguments))"
            inner.block(
              "for call in \(model.mappingsName).\(NameScope.unescaped(provider.name))Calls(for: .event(\(value)), in: HubContext())"
            ) { loop in
              loop.line("try deliver(call)")
            }
          }
        }
      }
    }
  }
}
