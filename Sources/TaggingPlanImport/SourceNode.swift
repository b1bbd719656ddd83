import AnalyticsHub
import TaggingPlan

/// A value of an imported JSON or YAML document with the line and column it starts at, so every
/// warning and error can name its place in the source.
///
/// Reading the value as what it holds (``string``, ``number``, ``members``, ``elements``…) carries
/// the key holding it in the import's ``KeyLedger``: a key counts as carried when its value was
/// used, not when it was looked up (a value of a kind the importer does not read stays reported).
public struct SourceNode: Sendable, Hashable {
  /// One member of an object: its key, where the key is, and its value.
  public struct Member: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Where the key starts.
    public var keyLocation: SourceLocation
    /// The value.
    public var value: SourceNode {
      didSet { value.owner = ordinal }
    }
    /// The key's number, unique among the keys the process read (``KeyOrdinals``): the import's
    /// ``KeyLedger`` accounts for it by this number.
    var ordinal: UInt32 = 0

    /// A member; its value is held by the key numbered `ordinal`.
    init(key: String, keyLocation: SourceLocation, value: SourceNode, ordinal: UInt32 = 0) {
      self.key = key
      self.keyLocation = keyLocation
      self.ordinal = ordinal
      self.value = value
      self.value.owner = ordinal
    }
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
  /// The ordinal of the key holding this value (``Member/ordinal``); ``noOwner`` for a root, an
  /// element or a node made by the importer. Not part of the node's equality.
  var owner: UInt32 = SourceNode.noOwner

  /// The ``owner`` of a value no key holds.
  static let noOwner = UInt32.max

  /// A node.
  public init(_ value: Value, at location: SourceLocation) {
    self.value = value
    self.location = location
  }

  public static func == (lhs: SourceNode, rhs: SourceNode) -> Bool {
    lhs.value == rhs.value && lhs.location == rhs.location
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(value)
    hasher.combine(location)
  }

  /// Notes the key holding this value as carried in the import's ``KeyLedger``: the importer used
  /// the value as a whole (a constant copied into the plan).
  func use() {
    guard owner != Self.noOwner else { return }
    KeyLedger.current?.use(ordinal: owner)
  }

  /// `result`, the key holding this value carried when `result` is not `nil`.
  private func used<Result>(_ result: Result?) -> Result? {
    if result != nil { use() }
    return result
  }

  /// The members when an object, else `nil` (reading them uses the value).
  public var members: [Member]? { used(objectMembers) }

  /// The elements when an array, else `nil` (reading them uses the value).
  public var elements: [SourceNode]? { used(arrayElements) }

  /// The members when an object, the value not used (a walk that takes nothing from it).
  var objectMembers: [Member]? {
    if case .object(let members) = value { return members }
    return nil
  }

  /// The elements when an array, the value not used.
  var arrayElements: [SourceNode]? {
    if case .array(let elements) = value { return elements }
    return nil
  }

  /// The text when a string, the value not used (a look at a shape: `type: object`?).
  var stringShape: String? {
    if case .string(let text) = value { return text }
    return nil
  }

  /// The text when a string, else `nil`.
  public var string: String? {
    if case .string(let text) = value { return used(text) }
    return nil
  }

  /// The number when a number, else `nil` (the nearest double for an integer past 2^53:
  /// ``exactNumber`` keeps its digits).
  public var number: Double? {
    if case .number(let number) = value { return used(number.doubleValue) }
    return nil
  }

  /// The number exactly as written when a number (see ``Value/number(_:)``), else `nil`.
  public var exactNumber: PropertyValue? {
    if case .number(let number) = value { return used(number) }
    return nil
  }

  /// The value when a boolean, else `nil`.
  public var bool: Bool? {
    if case .bool(let flag) = value { return used(flag) }
    return nil
  }

  /// Whether it is `null` (when it is, the value is used).
  public var isNull: Bool {
    guard value == .null else { return false }
    use()
    return true
  }

  /// The value of the first member named `key` when an object.
  public subscript(key: String) -> SourceNode? { member(key)?.value }

  /// The first member named `key` when an object. Looking a key up does not carry it: reading
  /// its value does (``string``, ``members``…); looking into this object uses it.
  public func member(_ key: String) -> Member? {
    members?.first(where: { $0.key == key })
  }

  /// The value as a constraint value when it is a single value (not an object or an array).
  public var scalar: ScalarValue? {
    switch value {
    case .string(let text): return used(.string(text))
    case .number(let number): return used(.number(number))
    case .bool(let flag): return used(.bool(flag))
    case .null: return used(.null)
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
