import AnalyticsHub
import TaggingPlan

/// A value of an imported JSON or YAML document with the line and column it starts at, so every
/// warning and error can name its place in the source.
public struct SourceNode: Sendable, Hashable {
  /// One member of an object: its key, where the key is, and its value.
  public struct Member: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Where the key starts.
    public var keyLocation: SourceLocation
    /// The value.
    public var value: SourceNode
    /// The key's number, unique among the keys the process read (``KeyOrdinals``): the import's
    /// ``KeyLedger`` accounts for it by this number.
    var ordinal: UInt32 = 0
  }

  /// The value, by kind.
  public enum Value: Sendable, Hashable {
    /// An object (a YAML mapping), members in source order.
    case object([Member])
    /// An array (a YAML sequence).
    case array([SourceNode])
    /// A string.
    case string(String)
    /// A number exactly as written: `.int`, `.largeInteger` (an integer past `Int`'s range, its
    /// digits kept) or `.double`.
    case number(PropertyValue)
    /// `true` or `false`.
    case bool(Bool)
    /// `null` (YAML: `~`, `null` or nothing).
    case null
  }

  /// The value.
  public var value: Value
  /// Where the value starts.
  public var location: SourceLocation

  /// A node.
  public init(_ value: Value, at location: SourceLocation) {
    self.value = value
    self.location = location
  }

  /// The members when an object, else `nil`.
  public var members: [Member]? {
    if case .object(let members) = value { return members }
    return nil
  }

  /// The elements when an array, else `nil`.
  public var elements: [SourceNode]? {
    if case .array(let elements) = value { return elements }
    return nil
  }

  /// The text when a string, else `nil`.
  public var string: String? {
    if case .string(let text) = value { return text }
    return nil
  }

  /// The number when a number, else `nil` (the nearest double for an integer past 2^53:
  /// ``exactNumber`` keeps its digits).
  public var number: Double? {
    if case .number(let number) = value { return number.doubleValue }
    return nil
  }

  /// The number exactly as written when a number (see ``Value/number(_:)``), else `nil`.
  public var exactNumber: PropertyValue? {
    if case .number(let number) = value { return number }
    return nil
  }

  /// The value when a boolean, else `nil`.
  public var bool: Bool? {
    if case .bool(let flag) = value { return flag }
    return nil
  }

  /// Whether it is `null`.
  public var isNull: Bool { value == .null }

  /// The value of the first member named `key` when an object.
  public subscript(key: String) -> SourceNode? { member(key)?.value }

  /// The first member named `key` when an object; looking it up carries it in the import's
  /// ``KeyLedger``.
  public func member(_ key: String) -> Member? {
    guard let found = members?.first(where: { $0.key == key }) else { return nil }
    KeyLedger.current?.carry(found)
    return found
  }

  /// The value as a constraint value when it is a single value (not an object or an array).
  public var scalar: ScalarValue? {
    switch value {
    case .string(let text): return .string(text)
    case .number(let number): return .number(number)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    case .object, .array: return nil
    }
  }

  /// What it is, for messages: `an object`, `the string "x"`…
  public var kindDescription: String {
    switch value {
    case .object: return "an object"
    case .array: return "an array"
    case .string(let text): return "the string \"\(text.prefix(60))\""
    case .number(let number): return "the number \(NumberText.yaml(number))"
    case .bool(let flag): return "\(flag)"
    case .null: return "null"
    }
  }
}
