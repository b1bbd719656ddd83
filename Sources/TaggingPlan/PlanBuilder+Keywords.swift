import AnalyticsHub

extension PlanLoader {
  /// The rarer JSON Schema keywords a property may carry (``SchemaKeywords``).
  static let keywordKeys = [
    "multipleOf", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "uniqueItems", "contains",
    "minContains", "maxContains", "minProperties", "maxProperties", "patternProperties", "propertyNames",
    "dependentRequired", "dependentSchemas", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
    "prefixItems", "unevaluatedProperties", "unevaluatedItems",
  ]
}

extension PlanLoader.Builder {
  /// Reads `field` into `keywords` when it is one of ``PlanLoader/keywordKeys``; `false` when it
  /// is another key.
  func keyword(
    _ field: YAMLReader.Pair, _ what: String, depth: Int, into keywords: inout SchemaKeywords<PropertyRule>
  ) throws -> Bool {
    let value = field.value
    let label = "\(field.key) of \(what)"
    func schema(_ node: YAMLNode, _ name: String) throws -> PropertyRule {
      try propertyRule(
        YAMLReader.Pair(key: name, keyNode: field.keyNode, value: node), "\(name) of \(what)",
        depth: depth + 1)
    }
    func schemas() throws -> [PropertyRule] {
      let nodes = try reader.sequence(value, label)
      return try nodes.indices.map { try schema(nodes[$0], "\(field.key)[\($0)]") }
    }
    switch field.key {
    case "multipleOf":
      let divisor = try reader.number(value, label)
      guard divisor > 0 else { throw reader.error(value, "\(label) must be more than 0") }
      // A divisor is held as a double: one it cannot hold (an integer past 2^53 such as
      // 9007199254740993) is refused, never rounded into another divisor silently.
      let written = try reader.exactNumber(value, label)
      guard NumberOrder.same(written, .double(divisor)) else {
        let nearest = UInt64(exactly: divisor).map(String.init) ?? PropertyValue.double(divisor).displayText
        throw reader.error(
          value,
          "\(label) is \(written.displayText), which cannot be checked exactly: a divisor past 2^53 must "
            + "be one a double holds (the nearest is \(nearest))")
      }
      keywords.multipleOf = divisor
    case "exclusiveMinimum": keywords.exclusiveMinimum = try reader.exactNumber(value, label)
    case "exclusiveMaximum": keywords.exclusiveMaximum = try reader.exactNumber(value, label)
    case "minItems": keywords.minItems = try reader.nonNegativeInt(value, label)
    case "maxItems": keywords.maxItems = try reader.nonNegativeInt(value, label)
    case "uniqueItems": keywords.uniqueItems = try reader.bool(value, label)
    case "contains": keywords.contains = try schema(value, "contains")
    case "minContains": keywords.minContains = try reader.nonNegativeInt(value, label)
    case "maxContains": keywords.maxContains = try reader.nonNegativeInt(value, label)
    case "minProperties": keywords.minProperties = try reader.nonNegativeInt(value, label)
    case "maxProperties": keywords.maxProperties = try reader.nonNegativeInt(value, label)
    case "patternProperties":
      keywords.patternProperties = try reader.mapping(value, label).map { pair in
        let compiled: PlanPattern
        do {
          compiled = try PlanPattern(pair.key)
        } catch {
          throw reader.error(
            pair.keyNode, "\(label) has a key that is not a valid regular expression (\(error)): \(pair.key)")
        }
        return PatternSchema(
          pattern: compiled,
          schema: try propertyRule(pair, "pattern \(pair.key) of \(label)", depth: depth + 1))
      }
    case "propertyNames": keywords.propertyNames = try schema(value, "propertyNames")
    case "unevaluatedProperties": keywords.unevaluatedSchema = try schema(value, "unevaluatedProperties")
    case "unevaluatedItems": keywords.unevaluatedItems = try schema(value, "unevaluatedItems")
    case "dependentRequired":
      keywords.dependentRequired = try reader.mapping(value, label).map { pair in
        DependentNames(name: pair.key, required: try reader.strings(pair.value, "\(pair.key) of \(label)"))
      }
    case "dependentSchemas":
      keywords.dependentSchemas = try reader.mapping(value, label).map { pair in
        NamedSchema(
          name: pair.key, schema: try propertyRule(pair, "\(pair.key) of \(label)", depth: depth + 1))
      }
    case "allOf": keywords.allOf = try schemas()
    case "anyOf": keywords.anyOf = try schemas()
    case "oneOf": keywords.oneOf = try schemas()
    case "not": keywords.not = try schema(value, "not")
    case "if": keywords.ifSchema = try schema(value, "if")
    case "then": keywords.thenSchema = try schema(value, "then")
    case "else": keywords.elseSchema = try schema(value, "else")
    case "prefixItems": keywords.prefixItems = try schemas()
    default: return false
    }
    return true
  }

  /// Any YAML value as a property value: a scalar, a list or a mapping (`enum`, `const`).
  func anyValue(_ node: YAMLNode, _ what: String) throws -> PropertyValue {
    switch node.kind {
    case .sequence:
      return .array(try reader.sequence(node, what).map { try anyValue($0, what) })
    case .mapping:
      return .object(
        Properties(try reader.mapping(node, what).map { ($0.key, try anyValue($0.value, what)) }))
    default:
      return try reader.value(node, what)
    }
  }
}
