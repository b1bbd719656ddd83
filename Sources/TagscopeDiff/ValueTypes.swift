import AnalyticsHub
import TaggingPlan

/// The JSON types a property or parameter was seen with, as a set (order-insensitive: a value seen
/// once as a string and once as a number is `number|string`). Integers and doubles are both
/// `number`, as JSON has one number type.
public struct ValueTypes: OptionSet, Sendable, Hashable, CustomStringConvertible {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let string = ValueTypes(rawValue: 1)
  public static let number = ValueTypes(rawValue: 2)
  public static let bool = ValueTypes(rawValue: 4)
  public static let date = ValueTypes(rawValue: 8)
  public static let array = ValueTypes(rawValue: 16)
  public static let object = ValueTypes(rawValue: 32)
  public static let null = ValueTypes(rawValue: 64)

  private static let names: [(ValueTypes, String)] = [
    (.array, "array"), (.bool, "bool"), (.date, "date"), (.null, "null"), (.number, "number"),
    (.object, "object"), (.string, "string"),
  ]

  /// The type of one value.
  public init(_ value: PropertyValue) {
    switch value {
    case .string: self = .string
    case .int, .largeInteger, .double: self = .number
    case .bool: self = .bool
    case .date: self = .date
    case .array: self = .array
    case .object: self = .object
    case .null: self = .null
    }
  }

  /// The types joined with `|` in alphabetical order, e.g. `number|string`.
  public var description: String { names.joined(separator: "|") }

  /// The type names, alphabetically.
  public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }
}

/// Types by path within a tag's properties or a call's parameters: `title`, `item.id`,
/// `products[].price` (an array's elements share `[]`). Every key is kept as it is — numbered
/// siblings (`cd1`, `cd2`) or id-shaped keys are paths of their own, so removing one while another
/// remains is a change. Nesting is followed to ``depthLimit`` levels and at most ``pathLimit``
/// paths are kept per tag or call (recordings are untrusted); what one value had beyond them is
/// counted in ``uncompared``, so a value that loses or gains keys past the limits is still a change.
public struct PathTypes: Sendable, Hashable {
  public static let depthLimit = 8
  public static let pathLimit = 256

  /// Types by path.
  public private(set) var types: [String: ValueTypes] = [:]
  /// The most keys and elements one value had that were not kept: past ``pathLimit`` paths or
  /// deeper than ``depthLimit`` levels (0 when everything was compared).
  public private(set) var uncompared = 0

  public init() {}

  /// Adds every path of `properties` with its value's type.
  public mutating func add(_ properties: Properties) {
    var skipped = 0
    for (key, value) in properties { add(value, at: key, depth: 1, skipped: &skipped) }
    uncompared = max(uncompared, skipped)
  }

  /// Whether ``add(_:)`` would change anything (checked first, so that the storage shared by
  /// equal types is not copied to add nothing).
  func wouldChange(_ properties: Properties) -> Bool {
    var skipped = 0
    for (key, value) in properties where wouldChange(value, at: key, depth: 1, skipped: &skipped) {
      return true
    }
    return skipped > uncompared
  }

  private func wouldChange(_ value: PropertyValue, at path: String, depth: Int, skipped: inout Int) -> Bool {
    guard let known = types[path] else {
      guard types.count < Self.pathLimit else {
        skipped += Self.size(of: value)
        return false
      }
      return true
    }
    guard known.contains(ValueTypes(value)) else { return true }
    guard depth < Self.depthLimit else {
      skipped += Self.size(of: value) - 1
      return false
    }
    switch value {
    case .object(let nested):
      return nested.contains { key, inner in
        wouldChange(inner, at: path + "." + key, depth: depth + 1, skipped: &skipped)
      }
    case .array(let elements):
      return elements.contains { wouldChange($0, at: path + "[]", depth: depth + 1, skipped: &skipped) }
    default: return false
    }
  }

  private mutating func add(_ value: PropertyValue, at path: String, depth: Int, skipped: inout Int) {
    guard types[path] != nil || types.count < Self.pathLimit else {
      skipped += Self.size(of: value)
      return
    }
    types[path, default: []].insert(ValueTypes(value))
    guard depth < Self.depthLimit else {
      skipped += Self.size(of: value) - 1
      return
    }
    switch value {
    case .object(let nested):
      for (key, inner) in nested { add(inner, at: path + "." + key, depth: depth + 1, skipped: &skipped) }
    case .array(let elements):
      for element in elements { add(element, at: path + "[]", depth: depth + 1, skipped: &skipped) }
    default: break
    }
  }

  /// The value itself and every key and element nested in it (the decoder bounds the nesting).
  static func size(of value: PropertyValue) -> Int {
    switch value {
    case .object(let nested): 1 + nested.reduce(0) { $0 + size(of: $1.value) }
    case .array(let elements): 1 + elements.reduce(0) { $0 + size(of: $1) }
    default: 1
    }
  }
}
