import AnalyticsHub
import Foundation
import TagscopeTimeline

/// A JSON Schema type word accepted by `type`.
public enum ValueType: String, Sendable, Hashable, CaseIterable {
  case string
  case integer
  case number
  case boolean
  case array
  case object
  case null

  /// Whether `value` is of this type; an integral double counts as an integer, an integer as a
  /// number, a date as a string.
  public func accepts(_ value: PropertyValue) -> Bool {
    switch (self, value) {
    case (.string, .string), (.string, .date), (.integer, .int), (.number, .int), (.number, .double),
      (.boolean, .bool), (.array, .array), (.object, .object), (.null, .null):
      return true
    case (.integer, .double(let number)):
      return number.rounded() == number && number.isFinite
    default:
      return false
    }
  }
}

/// A compiled `pattern`: matched anywhere in the string, as JSON Schema does, in time linear in
/// the value (`LinearPattern`), so no plan and no value can stall a check.
public final class PlanPattern: Sendable, Hashable {
  /// The pattern as written in the plan.
  public let source: String
  private let expression: LinearPattern

  /// Compiles `source`, or throws what is wrong with it (backreferences and lookaround included).
  public init(_ source: String) throws(PatternError) {
    self.source = source
    expression = try LinearPattern(source)
  }

  /// Whether the pattern matches somewhere in `text`.
  public func matches(_ text: String) -> Bool { expression.matches(text) }

  public static func == (lhs: PlanPattern, rhs: PlanPattern) -> Bool { lhs.source == rhs.source }
  public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// Remembers pattern results for values already seen: analytics values repeat (identifiers,
/// enumerations), so a long recording does not run the regular expression engine on every record.
public struct PatternMemo: Sendable {
  private struct Key: Hashable {
    var pattern: ObjectIdentifier
    var text: String
  }

  /// Results kept at most; later values are matched without being remembered.
  static let limit = 65_536
  /// Bytes of remembered text at most (each result counts its text and 64 bytes of table): long
  /// free-text values are the ones least likely to repeat, so they must not fill memory.
  static let byteLimit = 4 << 20
  private var results: [Key: Bool] = [:]
  /// The bytes the remembered results hold, as ``byteLimit`` counts them.
  private(set) var bytes = 0

  /// The bytes this memo may hold (``byteLimit`` unless a test asks for less).
  let maximumBytes: Int

  /// An empty memo.
  public init() { maximumBytes = Self.byteLimit }

  /// An empty memo holding at most `maximumBytes`.
  init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

  /// How many results are remembered.
  var count: Int { results.count }

  /// Whether `pattern` matches `text`, from memory when it was asked before.
  public mutating func matches(_ pattern: PlanPattern, _ text: String) -> Bool {
    let key = Key(pattern: ObjectIdentifier(pattern), text: text)
    if let known = results[key] { return known }
    let result = pattern.matches(text)
    let size = text.utf8.count + 64
    if results.count < Self.limit, bytes + size <= maximumBytes {
      results[key] = result
      bytes += size
    }
    return result
  }
}

/// The constraints on one property (or one provider parameter), in JSON Schema words.
public struct PropertyRule: Sendable, Hashable {
  /// The property's name.
  public var name: String
  /// Where the property is declared in the plan.
  public var location: SourceLocation
  /// Whether the property must be present: absent, or null when `types` does not accept null, is
  /// missing.
  public var required = false
  /// Accepted types; empty accepts any.
  public var types: [ValueType] = []
  /// Accepted values; `nil` accepts any.
  public var allowed: [PropertyValue]?
  public var pattern: PlanPattern?
  public var minimum: Double?
  public var maximum: Double?
  public var minLength: Int?
  public var maxLength: Int?
  /// The one accepted value (`const`); `nil` accepts any.
  public var constant: PropertyValue?
  /// The property's `description`, not checked (generated code's documentation).
  public var description: String?
  /// The string format (`format`: date-time, email, uri, uuid); `nil` for any string.
  public var format: ValueFormat?
  /// An object's own properties and their constraints (`properties`); `nil` leaves its content
  /// unchecked.
  public var properties: [PropertyRule]? {
    didSet { keys = ObjectKeys(properties ?? []) }
  }
  /// Where each of `properties` is, by name, and how many are required (a fast object check).
  private(set) var keys = ObjectKeys([])
  /// Whether an object may hold keys its `properties` do not list (`additionalProperties`).
  public var additionalProperties = true
  private var itemStorage: [PropertyRule] = []

  /// The constraints every element of an array meets (`items`); `nil` leaves them unchecked.
  public var items: PropertyRule? {
    get { itemStorage.first }
    set { itemStorage = newValue.map { [$0] } ?? [] }
  }

  private var keywordStorage: [SchemaKeywords<PropertyRule>] = []

  /// The rarer keywords (`multipleOf`, `oneOf`, `patternProperties`…); `nil` when there is none,
  /// so a rule without them costs nothing more to check.
  public var keywords: SchemaKeywords<PropertyRule>? {
    get { keywordStorage.first }
    set { keywordStorage = newValue.flatMap { $0.isEmpty ? nil : [$0] } ?? [] }
  }

  /// Whether the rule looks inside objects or arrays (`properties`, `additionalProperties: false`,
  /// `items`, the rarer keywords).
  public var checksContent: Bool {
    properties != nil || !additionalProperties || !itemStorage.isEmpty || !keywordStorage.isEmpty
  }

  /// Whether a null value counts as absent: when `type` lists types and null is not one of them.
  public var nullIsAbsent: Bool { !types.isEmpty && !types.contains(.null) }

  /// A rule with no constraint yet.
  public init(name: String, location: SourceLocation) {
    self.name = name
    self.location = location
  }

  /// What is wrong with a present `value`: a wrong type, or a value outside enum, pattern, range or
  /// length; `nil` when it conforms.
  public func problem(with value: PropertyValue) -> ValueProblem? {
    var memo = PatternMemo()
    return problem(with: value, memo: &memo)
  }

  /// ``problem(with:)``, remembering pattern results in `memo`.
  public func problem(with value: PropertyValue, memo: inout PatternMemo) -> ValueProblem? {
    if !types.isEmpty, !types.contains(where: { $0.accepts(value) }) {
      return ValueProblem(
        rule: .wrongType,
        found: "is \(Self.describe(value))",
        expected: "expects " + types.map(\.rawValue).joined(separator: " or "))
    }
    if let allowed, !allowed.contains(where: { Self.same($0, value) }) {
      return ValueProblem(
        rule: .invalidValue, found: "is \(Self.quoted(value))",
        expected: "allows only " + allowed.map(Self.quoted).joined(separator: ", "))
    }
    if let constant, !Self.same(constant, value) {
      return ValueProblem(
        rule: .invalidValue, found: "is \(Self.quoted(value))", expected: "expects \(Self.quoted(constant))")
    }
    if let format, case .string(let text) = value, !format.accepts(text) {
      return ValueProblem(
        rule: .invalidValue, found: "is \(Self.quoted(value))", expected: "expects format \(format.rawValue)")
    }
    if case .string(let text) = value {
      if let pattern, !memo.matches(pattern, text) {
        return ValueProblem(
          rule: .invalidValue, found: "is \(Self.quoted(value))",
          expected: "expects pattern \(pattern.source)")
      }
      // JSON Schema lengths count Unicode code points; UTF-8 bounds decide most cases without
      // counting (a code point is 1 to 4 bytes).
      let bytes = text.utf8.count
      if let minLength, bytes < minLength * 4 {
        let length = text.unicodeScalars.count
        if length < minLength {
          return ValueProblem(
            rule: .invalidValue, found: "is \(length) characters long",
            expected: "expects at least \(minLength)")
        }
      }
      if let maxLength, bytes > maxLength {
        let length = text.unicodeScalars.count
        if length > maxLength {
          return ValueProblem(
            rule: .invalidValue, found: "is \(length) characters long",
            expected: "allows at most \(maxLength)")
        }
      }
    }
    if let number = value.doubleValue {
      if let minimum, number < minimum {
        return ValueProblem(
          rule: .invalidValue, found: "is \(value.displayText)",
          expected: "expects at least \(Self.format(minimum))")
      }
      if let maximum, number > maximum {
        return ValueProblem(
          rule: .invalidValue, found: "is \(value.displayText)",
          expected: "expects at most \(Self.format(maximum))")
      }
    }
    if let keywords = keywordStorage.first {
      return keywordProblem(keywords, value, memo: &memo)
    }
    return nil
  }

  /// Whether two values are the same, numbers compared by value (`1830` equals `1830.0`), arrays
  /// element by element, objects key by key in any order.
  public static func same(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Bool {
    switch (lhs, rhs) {
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
    case (.string(let left), .string(let right)):
      // Code point by code point: JSON Schema does not equate canonically equivalent strings.
      return left.unicodeScalars.elementsEqual(right.unicodeScalars)
    case (.object(let left), .object(let right)):
      guard left.count == right.count else { return false }
      return left.allSatisfy { pair in right[pair.key].map { same(pair.value, $0) } ?? false }
    default:
      if let left = lhs.doubleValue, let right = rhs.doubleValue { return left == right }
      return lhs == rhs
    }
  }

  /// `a string ("1830")`, `an integer (1830)`: the type and the value, for messages.
  static func describe(_ value: PropertyValue) -> String {
    let article =
      value.typeName == "integer" || value.typeName == "array" || value.typeName == "object" ? "an" : "a"
    if case .null = value { return "null" }
    return "\(article) \(value.typeName) (\(quoted(value)))"
  }

  /// Strings in double quotes, other values as written.
  static func quoted(_ value: PropertyValue) -> String {
    if case .string(let text) = value { return "\"\(text)\"" }
    return value.displayText
  }

  static func format(_ number: Double) -> String {
    number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
  }
}

/// A value that breaks a ``PropertyRule``: which rule, what was found and what the plan expects,
/// as sentence fragments.
public struct ValueProblem: Sendable, Hashable {
  public var rule: ViolationRule
  /// `is a string ("x")`.
  public var found: String
  /// `expects integer`.
  public var expected: String
}
