import AnalyticsHub
import TaggingPlan

/// The Swift type a property's constraints give it.
indirect enum ValueShape {
  case string
  case int
  case double
  case bool
  /// `format: date-time`: a `Date`, written as ISO 8601 text.
  case date
  /// `format: uuid`: a `UUID`, written lowercased.
  case uuid
  /// A string `enum`: a generated Swift enum.
  case stringEnum(EnumDeclaration)
  case array(ValueShape)
  /// An object with `properties`: a generated struct.
  case object(StructDeclaration)
  /// An object without `properties`: ``Properties``.
  case anyObject
  /// Anything else (several types, no type): ``PropertyValue``.
  case any

  /// The type's name in source.
  var typeName: String {
    switch self {
    case .string: return "String"
    case .int: return "Int"
    case .double: return "Double"
    case .bool: return "Bool"
    case .date: return "Date"
    case .uuid: return "UUID"
    case .stringEnum(let declaration): return declaration.name
    case .array(let element): return "[\(element.typeName)]"
    case .object(let declaration): return declaration.name
    case .anyObject: return "Properties"
    case .any: return "PropertyValue"
    }
  }

  /// The ``PropertyValue`` expression of `expression`, a value of this type.
  func valueExpression(_ expression: String) -> String {
    switch self {
    case .string: return ".string(\(expression))"
    case .int: return ".int(\(expression))"
    case .double: return ".double(\(expression))"
    case .bool: return ".bool(\(expression))"
    case .date: return ".date(\(expression))"
    case .uuid: return ".string(\(expression).uuidString.lowercased())"
    case .stringEnum: return ".string(\(expression).rawValue)"
    case .array(let element): return ".array(\(expression).map { \(element.valueExpression("$0")) })"
    case .object: return "\(expression).propertyValue"
    case .anyObject: return ".object(\(expression))"
    case .any: return expression
    }
  }
}

/// A string enum generated for an `enum` constraint.
struct EnumDeclaration {
  var name: String
  /// Swift case names and the plan's values.
  var cases: [(name: String, value: String)]
  var documentation: String
}

/// A struct generated for an object with `properties`.
struct StructDeclaration {
  var name: String
  var fields: [Field]
  var documentation: String
}

/// One property (or parameter, or object key) as a Swift value.
struct Field {
  /// The plan's name.
  var key: String
  /// The Swift name, escaped.
  var name: String
  var shape: ValueShape
  /// Not required: optional, omitted when `nil`.
  var isOptional: Bool
  /// Required but may be null: optional, written as null when `nil`.
  var isNullable: Bool
  /// A `const` (or one-value `enum`): not a parameter, always this value.
  var constant: PropertyValue?
  var rule: PropertyRule

  /// Whether the Swift value is an optional.
  var isSwiftOptional: Bool { isOptional || isNullable }

  /// `podcastTitle: String`, `rating: Int? = nil`.
  var parameter: String {
    isSwiftOptional
      ? "\(name): \(shape.typeName)?\(isOptional ? " = nil" : "")" : "\(name): \(shape.typeName)"
  }

  /// The name without backticks, for doc text and comparisons; code writes ``name``, or
  /// ``argumentLabel`` in a call's argument list.
  var label: String { NameScope.unescaped(name) }

  /// The name as an argument label in a call (`f(label: value)`).
  var argumentLabel: String { SwiftIdentifier.argumentLabel(name) }
}

/// Builds ``ValueShape``s from constraints, collecting the enums and structs they need under
/// unique type names.
struct ShapeBuilder {
  var types: NameScope
  private(set) var enums: [EnumDeclaration] = []
  private(set) var structs: [StructDeclaration] = []

  init(types: NameScope) { self.types = types }

  /// The fields of `rules`, named uniquely within `scope`.
  mutating func fields(_ rules: [PropertyRule], owner: String, scope: inout NameScope) -> [Field] {
    rules.map { field($0, owner: owner, scope: &scope) }
  }

  mutating func field(_ rule: PropertyRule, owner: String, scope: inout NameScope) -> Field {
    let name = scope.claim(rule.name, style: .lower)
    let typeStem = owner + SwiftIdentifier.bare(rule.name, style: .upper)
    var constant = rule.constant
    if constant == nil, let allowed = rule.allowed, allowed.count == 1 { constant = allowed[0] }
    let nonNull = rule.types.filter { $0 != .null }
    return Field(
      key: rule.name, name: name, shape: shape(rule, typeStem: typeStem), isOptional: !rule.required,
      isNullable: rule.required && rule.types.contains(.null) && nonNull.count == 1,
      constant: constant, rule: rule)
  }

  /// The shape of values meeting `rule`.
  mutating func shape(_ rule: PropertyRule, typeStem: String) -> ValueShape {
    let nonNull = rule.types.filter { $0 != .null }
    if let allowed = rule.allowed, !allowed.isEmpty, nonNull.allSatisfy({ $0 == .string }) {
      let texts = allowed.compactMap(\.stringValue)
      if texts.count == allowed.count { return .stringEnum(enumeration(texts, stem: typeStem, rule: rule)) }
    }
    if let allowed = rule.allowed, !allowed.isEmpty, let numeric = Self.numericEnum(allowed, types: nonNull) {
      return numeric
    }
    guard nonNull.count == 1, rule.allowed == nil else { return .any }
    switch nonNull[0] {
    case .string:
      switch rule.format {
      case .dateTime?: return .date
      case .uuid?: return .uuid
      default: return .string
      }
    case .integer: return .int
    case .number: return .double
    case .boolean: return .bool
    case .array:
      guard let items = rule.items else { return .array(.any) }
      return .array(shape(items, typeStem: typeStem + "Item"))
    case .object:
      guard let properties = rule.properties, !properties.isEmpty, rule.keywords == nil else {
        return .anyObject
      }
      let name = types.claimBare(typeStem)
      var scope = NameScope(reserved: ["propertyValue"])
      let fields = fields(properties, owner: NameScope.unescaped(name), scope: &scope)
      let declaration = StructDeclaration(
        name: name, fields: fields,
        documentation: Documentation.summary(of: rule, fallback: "The `\(rule.name)` object."))
      structs.append(declaration)
      return .object(declaration)
    case .null: return .any
    }
  }

  /// An `enum` of numbers: `Int` when every value is an integer and the type allows it, `Double`
  /// when every value is a number; its values are asserted in debug builds.
  static func numericEnum(_ allowed: [PropertyValue], types: [ValueType]) -> ValueShape? {
    let integers = allowed.allSatisfy { if case .int = $0 { true } else { false } }
    let numbers = allowed.allSatisfy { $0.doubleValue != nil }
    if integers && (types.isEmpty || types == [.integer]) { return .int }
    if numbers && (types.isEmpty || types == [.number]) { return .double }
    return nil
  }

  private mutating func enumeration(_ values: [String], stem: String, rule: PropertyRule) -> EnumDeclaration {
    let name = types.claimBare(stem)
    var scope = NameScope(reserved: ["rawValue", "allCases"])
    var seen: Set<String> = []
    var cases: [(name: String, value: String)] = []
    for value in values where seen.insert(value).inserted {
      cases.append((scope.claim(value, style: .lower), value))
    }
    let declaration = EnumDeclaration(
      name: name, cases: cases,
      documentation: Documentation.summary(of: rule, fallback: "The values of `\(rule.name)`."))
    enums.append(declaration)
    return declaration
  }
}
