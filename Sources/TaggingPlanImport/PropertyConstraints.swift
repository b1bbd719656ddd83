import TaggingPlan

/// The constraints of one property or call parameter in the words of Tagscope's plan format
/// (`type`, `required`, `enum`, `const`, `pattern`, `format`, `minimum`, `maximum`, `minLength`,
/// `maxLength`, `properties`, `additionalProperties`, `items`, `description` and the rarer
/// ``SchemaKeywords``); `nil` or empty means not constrained.
public struct PropertyConstraints: Sendable, Hashable {
  /// The allowed types (any of them); empty: any type.
  public var types: [ValueType] = []
  /// Whether the property must be present (absent, or null when `types` leaves null out, is
  /// missing).
  public var required = false
  /// The allowed values.
  public var allowed: [ScalarValue]?
  /// The one allowed value.
  public var constant: ScalarValue?
  /// A regular expression a string value must match somewhere.
  public var pattern: String?
  /// The format of a string value.
  public var format: ValueFormat?
  /// The inclusive lower bound of a number.
  public var minimum: Double?
  /// The inclusive upper bound of a number.
  public var maximum: Double?
  /// The inclusive lower bound of a string's length.
  public var minLength: Int?
  /// The inclusive upper bound of a string's length.
  public var maxLength: Int?
  /// An object's properties, in source order.
  public var properties: [NamedConstraints]?
  /// Whether an object may carry properties `properties` does not list.
  public var additionalProperties: Bool?
  /// Free text, not checked.
  public var description: String?
  private var itemStorage: [PropertyConstraints] = []
  private var keywordStorage: [SchemaKeywords<PropertyConstraints>] = []

  /// No constraint.
  public init() {}

  /// The constraints of every element of an array.
  public var items: PropertyConstraints? {
    get { itemStorage.first }
    set { itemStorage = newValue.map { [$0] } ?? [] }
  }

  /// The rarer keywords (`multipleOf`, `oneOf`, `patternProperties`…); `nil` when none is set.
  public var keywords: SchemaKeywords<PropertyConstraints>? {
    get { keywordStorage.first }
    set { keywordStorage = newValue.flatMap { $0.isEmpty ? nil : [$0] } ?? [] }
  }

  /// A schema no value meets (JSON Schema's `false`): `not: {}`.
  public static var never: PropertyConstraints {
    var keywords = SchemaKeywords<PropertyConstraints>()
    keywords.not = PropertyConstraints()
    var result = PropertyConstraints()
    result.keywords = keywords
    return result
  }

  /// Whether nothing is constrained (a description aside).
  public var isUnconstrained: Bool {
    var bare = self
    bare.description = nil
    return bare == PropertyConstraints()
  }
}

/// A property or parameter name with its constraints.
public struct NamedConstraints: Sendable, Hashable {
  /// The name.
  public var name: String
  /// Its constraints.
  public var constraints: PropertyConstraints

  /// A named property.
  public init(name: String, constraints: PropertyConstraints) {
    self.name = name
    self.constraints = constraints
  }
}
