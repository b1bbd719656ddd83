import AnalyticsHub
import TaggingPlan

/// The constraints of one property or call parameter in the words of Tagscope's plan format
/// (`type`, `required`, `enum`, `const`, `pattern`, `format`, `pii`, `minimum`, `maximum`,
/// `minLength`, `maxLength`, `properties`, `additionalProperties`, `items`, `description` and the rarer
/// ``SchemaKeywords``); `nil` or empty means not constrained.
public struct PropertyConstraints: Sendable, Hashable {
  /// The allowed types (any of them); empty: any type.
  public var types: [ValueType] = []
  /// Whether the property must be present (absent, or null when `types` leaves null out, is
  /// missing).
  public var required = false
  /// The allowed values.
  public var allowed: [ScalarValue]? {
    get { valueStorage.first?.allowed }
    set { values.allowed = newValue }
  }
  /// The one allowed value.
  public var constant: ScalarValue? {
    get { valueStorage.first?.constant }
    set { values.constant = newValue }
  }
  /// A regular expression a string value must match somewhere.
  public var pattern: String? {
    get { valueStorage.first?.pattern }
    set { values.pattern = newValue }
  }
  /// The format of a string value.
  public var format: ValueFormat? {
    get { valueStorage.first?.format }
    set { values.format = newValue }
  }
  /// The kinds of personal data the value may carry (`pii`: ``TaggingPlan/PIIKinds/all`` is
  /// `pii: allowed`); empty: none, so each one the privacy detectors find is a finding.
  public var allowedPII: PIIKinds {
    get { valueStorage.first?.allowedPII ?? [] }
    set { values.allowedPII = newValue }
  }
  /// The inclusive lower bound of a number, as a double (``minimumValue`` keeps it exactly).
  public var minimum: Double? {
    get { minimumValue?.doubleValue }
    set { minimumValue = newValue.map { .double($0) } }
  }
  /// The inclusive upper bound of a number, as a double (``maximumValue`` keeps it exactly).
  public var maximum: Double? {
    get { maximumValue?.doubleValue }
    set { maximumValue = newValue.map { .double($0) } }
  }
  /// The inclusive lower bound of a number exactly as the source wrote it (`.int`,
  /// `.largeInteger` or `.double`).
  public var minimumValue: PropertyValue? {
    get { valueStorage.first?.minimum }
    set { values.minimum = newValue }
  }
  /// The inclusive upper bound of a number exactly as the source wrote it.
  public var maximumValue: PropertyValue? {
    get { valueStorage.first?.maximum }
    set { values.maximum = newValue }
  }
  /// The inclusive lower bound of a string's length.
  public var minLength: Int? {
    get { valueStorage.first?.minLength }
    set { values.minLength = newValue }
  }
  /// The inclusive upper bound of a string's length.
  public var maxLength: Int? {
    get { valueStorage.first?.maxLength }
    set { values.maxLength = newValue }
  }
  /// An object's properties, in source order.
  public var properties: [NamedConstraints]?
  /// Whether an object may carry properties `properties` does not list.
  public var additionalProperties: Bool?
  /// Free text, not checked.
  public var description: String? {
    get { valueStorage.first?.description }
    set { values.description = newValue }
  }
  /// The value constraints and the description, out of line: an import of many thousand
  /// events holds many constraints, most with none of them.
  private var valueStorage: [ValueConstraints] = []
  private var itemStorage: [PropertyConstraints] = []
  private var keywordStorage: [SchemaKeywords<PropertyConstraints>] = []

  /// No constraint.
  public init() {}

  /// ``valueStorage``'s one element, or none; set to none, it holds nothing.
  private var values: ValueConstraints {
    get { valueStorage.first ?? ValueConstraints() }
    set {
      if newValue == ValueConstraints() {
        valueStorage = []
      } else if valueStorage.isEmpty {
        valueStorage = [newValue]
      } else {
        valueStorage[0] = newValue
      }
    }
  }

  /// The constraints on a value itself, and the description.
  private struct ValueConstraints: Sendable, Hashable {
    var allowed: [ScalarValue]?
    var constant: ScalarValue?
    var pattern: String?
    var format: ValueFormat?
    var allowedPII: PIIKinds = []
    var minimum: PropertyValue?
    var maximum: PropertyValue?
    var minLength: Int?
    var maxLength: Int?
    var description: String?
  }

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
