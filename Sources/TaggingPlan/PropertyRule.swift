import AnalyticsHub
import Foundation
import TagscopeRecording

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
      (.integer, .largeInteger), (.number, .largeInteger),
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
  /// The value constraints, out of line: most rules have none, and a plan of many rules (an
  /// import of 20,000 events) would carry their room in each.
  private var boundStorage: [ValueBounds] = []

  /// ``boundStorage``'s one element, or no constraint; set to none, it holds nothing.
  private var bounds: ValueBounds {
    get { boundStorage.first ?? ValueBounds() }
    set {
      if newValue == ValueBounds() {
        boundStorage = []
      } else if boundStorage.isEmpty {
        boundStorage = [newValue]
      } else {
        boundStorage[0] = newValue
      }
    }
  }

  /// Accepted values (`enum`); `nil` accepts any.
  public var allowed: [PropertyValue]? {
    get { boundStorage.first?.allowed }
    set { bounds.allowed = newValue }
  }
  /// A string's `pattern`; `nil` for any.
  public var pattern: PlanPattern? {
    get { boundStorage.first?.pattern }
    set { bounds.pattern = newValue }
  }
  /// A number's `minimum` as a double (the nearest one for an integer past 2^53); `nil` for none.
  /// Checks use ``minimumValue``, exact.
  public var minimum: Double? {
    get { minimumValue?.doubleValue }
    set { minimumValue = newValue.map(Self.bound) }
  }
  /// A number's `maximum` as a double (see ``minimum``); `nil` for none.
  public var maximum: Double? {
    get { maximumValue?.doubleValue }
    set { maximumValue = newValue.map(Self.bound) }
  }
  /// A number's `minimum` exactly as the plan wrote it: `.int`, `.largeInteger` (an integer past
  /// `Int`'s range, its digits kept) or `.double`; `nil` for none.
  public var minimumValue: PropertyValue? {
    get { boundStorage.first?.minimum }
    set { bounds.minimum = newValue }
  }
  /// A number's `maximum` exactly as the plan wrote it (see ``minimumValue``); `nil` for none.
  public var maximumValue: PropertyValue? {
    get { boundStorage.first?.maximum }
    set { bounds.maximum = newValue }
  }

  /// A bound given as a double: a whole one within 2^53 is the integer it is.
  static func bound(_ number: Double) -> PropertyValue {
    number.rounded() == number && abs(number) <= 9_007_199_254_740_992 ? .int(Int(number)) : .double(number)
  }
  /// A string's `minLength` in code points; `nil` for none.
  public var minLength: Int? {
    get { boundStorage.first?.minLength }
    set { bounds.minLength = newValue }
  }
  /// A string's `maxLength` in code points; `nil` for none.
  public var maxLength: Int? {
    get { boundStorage.first?.maxLength }
    set { bounds.maxLength = newValue }
  }
  /// The one accepted value (`const`); `nil` accepts any.
  public var constant: PropertyValue? {
    get { boundStorage.first?.constant }
    set { bounds.constant = newValue }
  }
  /// The property's `description`, not checked (generated code's documentation).
  public var description: String? {
    get { boundStorage.first?.description }
    set { bounds.description = newValue }
  }
  /// The string format (`format`: date-time, email, uri, uuid); `nil` for any string.
  public var format: ValueFormat? {
    get { boundStorage.first?.format }
    set { bounds.format = newValue }
  }
  /// An object's own properties and their constraints (`properties`); `nil` leaves its content
  /// unchecked.
  public var properties: [PropertyRule]? {
    didSet { keys = ObjectKeys(properties ?? []) }
  }
  /// Where each of `properties` is, by name, and how many are required (a fast object check).
  private(set) var keys = ObjectKeys([])
  /// Whether an object may hold keys its `properties` do not list (`additionalProperties`).
  public var additionalProperties = true
  /// The personal data the plan intends here (`pii: allowed` is every kind, `pii: [email, phone]`
  /// those): the privacy check reports none of these kinds in this property's value.
  public var allowedPII: PIIKinds = []
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

  /// Whether the rule has any of the rarer keywords (without copying them out).
  var hasKeywords: Bool { !keywordStorage.isEmpty }

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
        found: "is \(Self.describe(value, key: name))",
        expected: "expects " + types.map(\.rawValue).joined(separator: " or "))
    }
    if let bounds = boundStorage.first, let problem = bounds.problem(with: value, key: name, memo: &memo) {
      return problem
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
      // Numbers by value, exactly (1 and 1.0 are the same; 2^64 and 2^64 - 1 are not).
      if let order = NumberOrder.compare(lhs, rhs) { return order == 0 }
      return lhs == rhs
    }
  }

  /// `a string ("1830")`, `an integer (1830)`: the type and the value, for messages; `key` names
  /// the value, for its masking (``quoted(_:key:)``).
  static func describe(_ value: PropertyValue, key: String? = nil) -> String {
    let article =
      value.typeName == "integer" || value.typeName == "array" || value.typeName == "object" ? "an" : "a"
    if case .null = value { return "null" }
    return "\(article) \(value.typeName) (\(quoted(value, key: key)))"
  }

  /// Strings in double quotes, other values as written; personal data the detectors find is
  /// masked (``PIIMask``), as a `personal-data` finding shows it. `key` is the property or
  /// parameter (path) that holds the value: the detectors read it as they do in the privacy check
  /// (``PIIKeyContext``: a UUID under `idfa` or `resettable_device_id` is an advertising id).
  static func quoted(_ value: PropertyValue, key: String? = nil) -> String {
    let value = PIIMask.value(value, key: key)
    if case .string(let text) = value { return "\"\(text)\"" }
    return value.displayText
  }

  /// A bound as the plan wrote it: an integer's digits, a double as ``format(_:)-(Double)``.
  static func format(_ number: PropertyValue) -> String {
    if case .double(let double) = number { return format(double) }
    return number.displayText
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
