/// For a catalogue-only plan (an imported one): one typed function per catalogue call on the
/// provider's SDK adapter, as Typewriter and Ampli generate, delivering exactly the planned call.
struct AdapterFunctionsWriter {
  var model: TaxonomyModel
  var access: String
  var providers: [MappingWriter.ProviderMapping]

  func write(into writer: inout SourceWriter) {
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
          body.doc("\(tag.documentation) Delivers the call \(provider.id)'s catalogue plans.")
          let parameters = tag.parameters
          if !parameters.isEmpty {
            body.doc("", "- Parameters:")
            for field in parameters { body.doc("  - \(field.label): \(Documentation.parameter(field))") }
          }
          let signature = parameters.map(\.parameter).joined(separator: ", ")
          body.block("\(access)func \(function)(\(signature)) throws") { inner in
            let arguments = parameters.map { "\($0.label): \($0.name)" }.joined(separator: ", ")
            let value = parameters.isEmpty ? ".\(tag.label)" : ".\(tag.label)(\(arguments))"
            inner.block(
              "for call in \(model.mappingsName).\(NameScope.unescaped(provider.name))Calls(for: .event(\(value)), on: nil)"
            ) { loop in
              loop.line("try deliver(call)")
            }
          }
        }
      }
    }
  }
}
