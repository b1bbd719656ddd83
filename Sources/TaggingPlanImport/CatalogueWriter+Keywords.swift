import AnalyticsHub
import TaggingPlan

extension CatalogueWriter {
  /// `key: value` for each of the rarer keywords set, subschemas in flow style on the same line.
  static func keywordFields(_ keywords: SchemaKeywords<PropertyConstraints>) -> [String] {
    var fields: [String] = []
    let numbers: [(String, PropertyValue?)] = [
      ("multipleOf", keywords.multipleOf.map(PropertyValue.double)),
      ("exclusiveMinimum", keywords.exclusiveMinimum),
      ("exclusiveMaximum", keywords.exclusiveMaximum),
    ]
    for case (let name, let number?) in numbers { fields.append("\(name): \(NumberText.yaml(number))") }
    let counts: [(String, Int?)] = [
      ("minItems", keywords.minItems), ("maxItems", keywords.maxItems), ("minContains", keywords.minContains),
      ("maxContains", keywords.maxContains), ("minProperties", keywords.minProperties),
      ("maxProperties", keywords.maxProperties),
    ]
    for case (let name, let count?) in counts { fields.append("\(name): \(count)") }
    if keywords.uniqueItems { fields.append("uniqueItems: true") }
    if let values = keywords.enumValues {
      fields.append("enum: [\(values.map(flowValue).joined(separator: ", "))]")
    }
    if let value = keywords.constValue { fields.append("const: \(flowValue(value))") }
    let single: [(String, PropertyConstraints?)] = [
      ("contains", keywords.contains), ("propertyNames", keywords.propertyNames),
      ("additionalProperties", keywords.additionalSchema),
      ("unevaluatedProperties", keywords.unevaluatedSchema),
      ("unevaluatedItems", keywords.unevaluatedItems),
      ("not", keywords.not), ("if", keywords.ifSchema),
      ("then", keywords.thenSchema), ("else", keywords.elseSchema),
    ]
    for case (let name, let schema?) in single { fields.append("\(name): \(flowSchema(schema))") }
    let lists: [(String, [PropertyConstraints])] = [
      ("allOf", keywords.allOf), ("anyOf", keywords.anyOf), ("oneOf", keywords.oneOf),
      ("prefixItems", keywords.prefixItems),
    ]
    for (name, schemas) in lists where !schemas.isEmpty {
      fields.append("\(name): [\(schemas.map(flowSchema).joined(separator: ", "))]")
    }
    if !keywords.patternProperties.isEmpty {
      let members = keywords.patternProperties.map {
        "\(YAMLText.scalar($0.pattern.source)): \(flowSchema($0.schema))"
      }
      fields.append("patternProperties: {\(members.joined(separator: ", "))}")
    }
    if !keywords.dependentRequired.isEmpty {
      let members = keywords.dependentRequired.map {
        "\(YAMLText.scalar($0.name)): [\($0.required.map(YAMLText.scalar).joined(separator: ", "))]"
      }
      fields.append("dependentRequired: {\(members.joined(separator: ", "))}")
    }
    if !keywords.dependentSchemas.isEmpty {
      let members = keywords.dependentSchemas.map { "\(YAMLText.scalar($0.name)): \(flowSchema($0.schema))" }
      fields.append("dependentSchemas: {\(members.joined(separator: ", "))}")
    }
    return fields
  }

  /// A whole schema on one line: `{type: object, properties: {a: {type: string}}}`.
  static func flowSchema(_ constraints: PropertyConstraints) -> String {
    var fields = scalarFields(constraints)
    if let properties = constraints.properties {
      let members = properties.map { "\(YAMLText.scalar($0.name)): \(flowSchema($0.constraints))" }
      fields.append("properties: {\(members.joined(separator: ", "))}")
    }
    if let items = constraints.items { fields.append("items: \(flowSchema(items))") }
    if let description = constraints.description {
      fields.append("description: \(YAMLText.scalar(description))")
    }
    return "{\(fields.joined(separator: ", "))}"
  }

  /// A value in YAML flow style: scalars as YAML reads them back, lists and mappings in brackets.
  static func flowValue(_ value: PropertyValue) -> String {
    switch value {
    case .string(let text): return YAMLText.scalar(text)
    case .int(let number): return String(number)
    case .largeInteger(let number): return number.text
    case .double(let number): return NumberText.yaml(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .date: return YAMLText.scalar(value.displayText)
    case .array(let elements): return "[\(elements.map(flowValue).joined(separator: ", "))]"
    case .object(let object):
      return
        "{\(object.map { "\(YAMLText.scalar($0.key)): \(flowValue($0.value))" }.joined(separator: ", "))}"
    }
  }
}
