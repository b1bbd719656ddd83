import AnalyticsHub

/// The rarer JSON Schema keywords of one schema, kept apart from the common ones so that a rule
/// without them costs one empty array on the hot path. `Schema` is the subschema type: a
/// ``PropertyRule`` in a plan, an importer's constraints while converting.
public struct SchemaKeywords<Schema: Sendable & Hashable>: Sendable, Hashable {
  /// A number must be a whole multiple of it (`multipleOf`).
  public var multipleOf: Double?
  /// A number must be greater (`exclusiveMinimum`), exactly as written (`.int`, `.largeInteger`
  /// or `.double`: compared by `NumberOrder`).
  public var exclusiveMinimum: PropertyValue?
  /// A number must be smaller (`exclusiveMaximum`), exactly as written.
  public var exclusiveMaximum: PropertyValue?
  /// The inclusive bounds of an array's length (`minItems`, `maxItems`).
  public var minItems: Int?
  public var maxItems: Int?
  /// Whether an array's elements must differ (`uniqueItems`).
  public var uniqueItems = false
  /// The schema some elements of an array meet (`contains`), and how many at least and at most
  /// (`minContains`, default 1; `maxContains`).
  public var contains: Schema?
  public var minContains: Int?
  public var maxContains: Int?
  /// The inclusive bounds of an object's key count (`minProperties`, `maxProperties`).
  public var minProperties: Int?
  public var maxProperties: Int?
  /// Schemas for the keys matching a pattern (`patternProperties`).
  public var patternProperties: [PatternSchema<Schema>] = []
  /// The schema every key of an object meets, as a string (`propertyNames`).
  public var propertyNames: Schema?
  /// The schema of the keys neither `properties` nor `patternProperties` name
  /// (`additionalProperties` as a schema).
  public var additionalSchema: Schema?
  /// The schema of the keys no other keyword of the object's schema, nor of its subschemas that
  /// the object meets, evaluated (`unevaluatedProperties`).
  public var unevaluatedSchema: Schema?
  /// The schema of the elements no other keyword of the array's schema, nor of its subschemas
  /// that the array meets, evaluated (`unevaluatedItems`).
  public var unevaluatedItems: Schema?
  /// Keys that must be present when another is (`dependentRequired`, draft-07 `dependencies`).
  public var dependentRequired: [DependentNames] = []
  /// Schemas the whole object meets when it has a key (`dependentSchemas`).
  public var dependentSchemas: [NamedSchema<Schema>] = []
  /// The value meets every one (`allOf`), at least one (`anyOf`), exactly one (`oneOf`).
  public var allOf: [Schema] = []
  public var anyOf: [Schema] = []
  public var oneOf: [Schema] = []
  /// The value must not meet it (`not`; `not: {}` accepts nothing).
  public var not: Schema?
  /// When the value meets `if`, it must meet `then`, else `else`.
  public var ifSchema: Schema?
  public var thenSchema: Schema?
  public var elseSchema: Schema?
  /// The schemas of an array's first elements, by position (`prefixItems`, draft-07 `items` as a
  /// list); `items` then constrains the elements after them.
  public var prefixItems: [Schema] = []
  /// Accepted values when one is an object or an array (`enum`, `const`), compared deeply.
  public var enumValues: [PropertyValue]?
  public var constValue: PropertyValue?

  /// No keyword.
  public init() {}

  /// The same keywords with each subschema turned into another type.
  public func map<Other>(_ transform: (Schema) throws -> Other) rethrows -> SchemaKeywords<Other> {
    var result = SchemaKeywords<Other>()
    result.multipleOf = multipleOf
    result.exclusiveMinimum = exclusiveMinimum
    result.exclusiveMaximum = exclusiveMaximum
    result.minItems = minItems
    result.maxItems = maxItems
    result.uniqueItems = uniqueItems
    result.contains = try contains.map(transform)
    result.minContains = minContains
    result.maxContains = maxContains
    result.minProperties = minProperties
    result.maxProperties = maxProperties
    result.patternProperties = try patternProperties.map {
      PatternSchema(pattern: $0.pattern, schema: try transform($0.schema))
    }
    result.propertyNames = try propertyNames.map(transform)
    result.additionalSchema = try additionalSchema.map(transform)
    result.unevaluatedSchema = try unevaluatedSchema.map(transform)
    result.unevaluatedItems = try unevaluatedItems.map(transform)
    result.dependentRequired = dependentRequired
    result.dependentSchemas = try dependentSchemas.map {
      NamedSchema(name: $0.name, schema: try transform($0.schema))
    }
    result.allOf = try allOf.map(transform)
    result.anyOf = try anyOf.map(transform)
    result.oneOf = try oneOf.map(transform)
    result.not = try not.map(transform)
    result.ifSchema = try ifSchema.map(transform)
    result.thenSchema = try thenSchema.map(transform)
    result.elseSchema = try elseSchema.map(transform)
    result.prefixItems = try prefixItems.map(transform)
    result.enumValues = enumValues
    result.constValue = constValue
    return result
  }

  /// Whether no keyword is set. Asked of every schema an import converts: field by field, stopping
  /// at the first set, where comparing with an empty value made one and compared every field
  /// through `Schema`'s generic equality (5% of an Iglu import). `storedKeywordCount` counts the
  /// fields this reads; a test holds it to the stored properties.
  public var isEmpty: Bool {
    multipleOf == nil && exclusiveMinimum == nil && exclusiveMaximum == nil && minItems == nil
      && maxItems == nil && !uniqueItems && contains == nil && minContains == nil && maxContains == nil
      && minProperties == nil && maxProperties == nil && patternProperties.isEmpty && propertyNames == nil
      && additionalSchema == nil && unevaluatedSchema == nil && unevaluatedItems == nil
      && dependentRequired.isEmpty && dependentSchemas.isEmpty && allOf.isEmpty && anyOf.isEmpty
      && oneOf.isEmpty && not == nil && ifSchema == nil && thenSchema == nil && elseSchema == nil
      && prefixItems.isEmpty && enumValues == nil && constValue == nil
  }

  /// How many stored properties ``isEmpty`` reads.
  static var storedKeywordCount: Int { 28 }
}

/// A pattern of keys and the schema of their values (one `patternProperties` member).
public struct PatternSchema<Schema: Sendable & Hashable>: Sendable, Hashable {
  public var pattern: PlanPattern
  public var schema: Schema

  /// A pattern and its schema.
  public init(pattern: PlanPattern, schema: Schema) {
    self.pattern = pattern
    self.schema = schema
  }
}

/// A key and a schema (one `dependentSchemas` member).
public struct NamedSchema<Schema: Sendable & Hashable>: Sendable, Hashable {
  public var name: String
  public var schema: Schema

  /// A key and its schema.
  public init(name: String, schema: Schema) {
    self.name = name
    self.schema = schema
  }
}

/// A key and the keys that must be present with it (one `dependentRequired` member).
public struct DependentNames: Sendable, Hashable {
  public var name: String
  public var required: [String]

  /// A key and the keys it requires.
  public init(name: String, required: [String]) {
    self.name = name
    self.required = required
  }
}

extension SchemaKeywords {
  /// `multipleOf 5`, `minItems 1`, `oneOf (2 schemas)`: the keywords set, in the plan's words.
  public var summary: [String] {
    var parts: [String] = []
    let numbers: [(String, PropertyValue?)] = [
      ("multipleOf", multipleOf.map(PropertyValue.double)), ("exclusiveMinimum", exclusiveMinimum),
      ("exclusiveMaximum", exclusiveMaximum),
    ]
    for case (let name, let number?) in numbers { parts.append("\(name) \(PropertyRule.format(number))") }
    let counts: [(String, Int?)] = [
      ("minItems", minItems), ("maxItems", maxItems), ("minContains", minContains),
      ("maxContains", maxContains),
      ("minProperties", minProperties), ("maxProperties", maxProperties),
    ]
    for case (let name, let count?) in counts { parts.append("\(name) \(count)") }
    if uniqueItems { parts.append("uniqueItems") }
    let schemas: [(String, Int)] = [
      ("contains", contains == nil ? 0 : 1), ("propertyNames", propertyNames == nil ? 0 : 1),
      ("additionalProperties", additionalSchema == nil ? 0 : 1), ("not", not == nil ? 0 : 1),
      ("unevaluatedProperties", unevaluatedSchema == nil ? 0 : 1),
      ("unevaluatedItems", unevaluatedItems == nil ? 0 : 1),
      ("if", ifSchema == nil ? 0 : 1), ("then", thenSchema == nil ? 0 : 1),
      ("else", elseSchema == nil ? 0 : 1),
      ("allOf", allOf.count), ("anyOf", anyOf.count), ("oneOf", oneOf.count),
      ("prefixItems", prefixItems.count),
      ("patternProperties", patternProperties.count), ("dependentSchemas", dependentSchemas.count),
    ]
    for (name, count) in schemas where count > 0 {
      parts.append(count == 1 ? "\(name) (a schema)" : "\(name) (\(count) schemas)")
    }
    for dependency in dependentRequired {
      parts.append("\(dependency.required.joined(separator: ", ")) with \(dependency.name)")
    }
    return parts
  }
}
