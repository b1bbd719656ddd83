import Foundation

/// A typed value carried by a tag property, a session property or a provider call parameter.
///
/// Values mirror what JSON and every analytics SDK can represent; `date` is kept typed until it is
/// written out (as an ISO 8601 string).
public enum PropertyValue: Sendable, Hashable {
  case string(String)
  case int(Int)
  /// An integer outside `Int`'s range, kept as its digits (read from JSON or a plan: see
  /// ``integer(digits:)``); an integer that fits is always an `.int`.
  case largeInteger(LargeInteger)
  case double(Double)
  case bool(Bool)
  case date(Date)
  case array([PropertyValue])
  case object(Properties)
  case null

  /// The value as a string, if it is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The value as an integer, if it is one.
  public var intValue: Int? {
    if case .int(let value) = self { return value }
    return nil
  }

  /// The value as a double; integers are widened (a large integer to the nearest double).
  public var doubleValue: Double? {
    switch self {
    case .double(let value): return value
    case .int(let value): return Double(value)
    case .largeInteger(let value): return value.doubleValue
    default: return nil
    }
  }

  /// The value as a boolean, if it is one.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The JSON Schema type word for this value (`string`, `integer`, `number`, `boolean`, `array`,
  /// `object`, `null`); dates are strings on the wire.
  public var typeName: String {
    switch self {
    case .string, .date: return "string"
    case .int, .largeInteger: return "integer"
    case .double: return "number"
    case .bool: return "boolean"
    case .array: return "array"
    case .object: return "object"
    case .null: return "null"
    }
  }

  /// A short human-readable rendering (strings unquoted), for logs and the terminal UI.
  public var displayText: String {
    switch self {
    case .string(let value): return value
    case .int(let value): return String(value)
    case .largeInteger(let value): return value.text
    case .double(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .date(let value): return Self.text(of: value)
    case .array(let values): return "[" + values.map(\.displayText).joined(separator: ", ") + "]"
    case .object(let properties):
      return "{" + properties.map { "\($0.key): \($0.value.displayText)" }.joined(separator: ", ") + "}"
    case .null: return "null"
    }
  }

  /// A date as the text a provider or a log receives: ISO 8601 in UTC with milliseconds
  /// (`2026-11-21T10:00:04.210Z`), rounded to the nearest millisecond like recordings are
  /// (Foundation's format style truncates, so half a millisecond is added first).
  public static func text(of date: Date) -> String {
    date.addingTimeInterval(0.0005).formatted(Self.dateStyle)
  }

  private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  /// Whether the value can be written as JSON (finite numbers all the way down).
  public var isRepresentable: Bool { firstUnrepresentablePath(prefix: "") == nil }

  /// The path (`key`, `key[2].inner`) of the first value JSON cannot represent, if any.
  func firstUnrepresentablePath(prefix: String) -> String? {
    switch self {
    case .double(let value): return value.isFinite ? nil : prefix
    case .array(let values):
      for (index, value) in values.enumerated() {
        if let path = value.firstUnrepresentablePath(prefix: "\(prefix)[\(index)]") { return path }
      }
      return nil
    case .object(let properties):
      return properties.firstUnrepresentablePath(prefix: prefix.isEmpty ? "" : prefix + ".")
    default: return nil
    }
  }
}

extension PropertyValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self = .int(value) }
}

extension PropertyValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: PropertyValue...) { self = .array(elements) }
}

extension PropertyValue: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, PropertyValue)...) {
    self = .object(Properties(elements))
  }
}

extension PropertyValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

/// Converts an app value into a ``PropertyValue``; adopt it on your own model types.
public protocol PropertyValueConvertible {
  /// The value as a property.
  var propertyValue: PropertyValue { get }
}

extension String: PropertyValueConvertible {
  public var propertyValue: PropertyValue { .string(self) }
}

extension Int: PropertyValueConvertible {
  public var propertyValue: PropertyValue { .int(self) }
}

extension Double: PropertyValueConvertible {
  public var propertyValue: PropertyValue { .double(self) }
}

extension Bool: PropertyValueConvertible {
  public var propertyValue: PropertyValue { .bool(self) }
}

extension Date: PropertyValueConvertible {
  public var propertyValue: PropertyValue { .date(self) }
}

extension Array: PropertyValueConvertible where Element: PropertyValueConvertible {
  public var propertyValue: PropertyValue { .array(map(\.propertyValue)) }
}

extension Optional: PropertyValueConvertible where Wrapped: PropertyValueConvertible {
  public var propertyValue: PropertyValue { self?.propertyValue ?? .null }
}
