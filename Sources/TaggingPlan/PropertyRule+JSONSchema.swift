import AnalyticsHub
import TagscopeRecording

extension PropertyRule {
  /// The constraints as a JSON object in JSON Schema words (`type`, `required`, `enum`, `pattern`,
  /// `minimum`, `maximum`, `minLength`, `maxLength`, `const`, `format`, `properties`,
  /// `additionalProperties`, `items` and the rarer ``SchemaKeywords``), for the JSON report's
  /// `expected`.
  package func writeJSONSchema(into out: inout JSONWriter) {
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
      if let minimumValue {
        out.key("minimum")
        out.value(minimumValue)
      }
      if let maximumValue {
        out.key("maximum")
        out.value(maximumValue)
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
      if let keywords { Self.write(keywords, into: &out) }
    }
  }

  /// The rarer keywords, as members of the object being written.
  private static func write(_ keywords: SchemaKeywords<PropertyRule>, into out: inout JSONWriter) {
    let numbers: [(StaticString, PropertyValue?)] = [
      ("multipleOf", keywords.multipleOf.map(PropertyValue.double)),
      ("exclusiveMinimum", keywords.exclusiveMinimum),
      ("exclusiveMaximum", keywords.exclusiveMaximum),
    ]
    for (name, number) in numbers {
      if let number {
        out.key(name)
        out.value(number)
      }
    }
    let counts: [(StaticString, Int?)] = [
      ("minItems", keywords.minItems), ("maxItems", keywords.maxItems), ("minContains", keywords.minContains),
      ("maxContains", keywords.maxContains), ("minProperties", keywords.minProperties),
      ("maxProperties", keywords.maxProperties),
    ]
    for (name, count) in counts {
      if let count {
        out.key(name)
        out.int(count)
      }
    }
    if keywords.uniqueItems {
      out.key("uniqueItems")
      out.bool(true)
    }
    let single: [(StaticString, PropertyRule?)] = [
      ("contains", keywords.contains), ("propertyNames", keywords.propertyNames),
      ("additionalProperties", keywords.additionalSchema),
      ("unevaluatedProperties", keywords.unevaluatedSchema),
      ("unevaluatedItems", keywords.unevaluatedItems),
      ("not", keywords.not), ("if", keywords.ifSchema),
      ("then", keywords.thenSchema), ("else", keywords.elseSchema),
    ]
    for (name, schema) in single {
      if let schema {
        out.key(name)
        schema.writeJSONSchema(into: &out)
      }
    }
    let lists: [(StaticString, [PropertyRule])] = [
      ("allOf", keywords.allOf), ("anyOf", keywords.anyOf), ("oneOf", keywords.oneOf),
      ("prefixItems", keywords.prefixItems),
    ]
    for (name, schemas) in lists where !schemas.isEmpty {
      out.key(name)
      out.array(schemas) { $1.writeJSONSchema(into: &$0) }
    }
    if !keywords.patternProperties.isEmpty {
      out.key("patternProperties")
      out.object { out in
        for (index, entry) in keywords.patternProperties.enumerated() {
          out.key(entry.pattern.source, first: index == 0)
          entry.schema.writeJSONSchema(into: &out)
        }
      }
    }
    if !keywords.dependentRequired.isEmpty {
      out.key("dependentRequired")
      out.object { out in
        for (index, entry) in keywords.dependentRequired.enumerated() {
          out.key(entry.name, first: index == 0)
          out.array(entry.required) { $0.string($1) }
        }
      }
    }
    if !keywords.dependentSchemas.isEmpty {
      out.key("dependentSchemas")
      out.object { out in
        for (index, entry) in keywords.dependentSchemas.enumerated() {
          out.key(entry.name, first: index == 0)
          entry.schema.writeJSONSchema(into: &out)
        }
      }
    }
  }
}
