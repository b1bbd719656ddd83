import TagscopeRecording

extension PropertyRule {
  /// The constraints as a JSON object in JSON Schema words (`type`, `required`, `enum`, `pattern`,
  /// `minimum`, `maximum`, `minLength`, `maxLength`, `const`, `format`, `properties`,
  /// `additionalProperties`, `items`), for the JSON report's `expected`.
  func writeJSONSchema(into out: inout JSONWriter) {
    out.object { out in
      if !types.isEmpty {
        out.key("type", first: true)
        out.array(types) { $0.string($1.rawValue) }
      }
      out.key("required", first: types.isEmpty)
      out.bool(required)
      if let allowed {
        out.key("enum")
        out.array(allowed) { $0.value($1) }
      }
      if let pattern {
        out.key("pattern")
        out.string(pattern.source)
      }
      if let minimum {
        out.key("minimum")
        out.double(minimum)
      }
      if let maximum {
        out.key("maximum")
        out.double(maximum)
      }
      if let minLength {
        out.key("minLength")
        out.int(minLength)
      }
      if let maxLength {
        out.key("maxLength")
        out.int(maxLength)
      }
      if let constant {
        out.key("const")
        out.value(constant)
      }
      if let format {
        out.key("format")
        out.string(format.rawValue)
      }
      if let properties {
        out.key("properties")
        out.object { out in
          for (index, property) in properties.enumerated() {
            out.key(property.name, first: index == 0)
            property.writeJSONSchema(into: &out)
          }
        }
      }
      if !additionalProperties {
        out.key("additionalProperties")
        out.bool(false)
      }
      if let items {
        out.key("items")
        items.writeJSONSchema(into: &out)
      }
    }
  }
}
