import AnalyticsHub

/// A strict RFC 8259 JSON parser over UTF-8 bytes producing ``PropertyValue``s, keeping object
/// keys in document order (a repeated key keeps its first position and its last value). It builds
/// the tree on the one lexer, ``JSONCursor``.
///
/// Integers that fit in `Int` become `.int`, other integers `.largeInteger` (their digits, kept
/// exactly), every other number `.double`. Strings must be valid UTF-8; `\u` escapes of lone surrogates decode to U+FFFD.
/// Nesting deeper than ``maximumDepth`` is an error rather than a stack overflow.
public enum JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  public static let maximumDepth = JSONCursor.maximumDepth

  /// Parses one JSON value filling all of `bytes` (surrounding whitespace allowed).
  public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> PropertyValue {
    let array = Array(bytes)
    let result = array.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONSyntaxError) -> PropertyValue in try parse(buffer) }
    }
    return try result.get()
  }

  /// Parses one JSON value filling all of `text`.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> PropertyValue {
    try parse(Array(text.utf8))
  }

  /// Parses the whole input as one value (surrounding whitespace allowed).
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> PropertyValue {
    var cursor = JSONCursor(bytes)
    cursor.skipWhitespace()
    let value = try cursor.value()
    try cursor.expectEnd()
    return value
  }
}

extension JSONCursor {
  /// The value at the cursor, as a tree.
  package mutating func value() throws(JSONSyntaxError) -> PropertyValue {
    switch peek {
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "{"): return .object(try object())
    case UInt8(ascii: "["):
      try open()
      var values: [PropertyValue] = []
      var first = true
      while try nextElement(first: first) {
        first = false
        values.append(try value())
      }
      return .array(values)
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      switch try number() {
      case .int(let number): return .int(number)
      case .largeInteger(let number): return .largeInteger(number)
      case .double(let number): return .double(number)
      }
    default: throw valueExpected()
    }
  }

  /// The object at the cursor (its `{` not yet consumed), keys in document order.
  package mutating func object() throws(JSONSyntaxError) -> Properties {
    try open()
    var properties = Properties()
    var seen: [String: Int]?
    var first = true
    while let keyBytes = try nextKey(first: first) {
      first = false
      let key = String(decoding: keyBytes, as: UTF8.self)
      Self.insert(key, try value(), into: &properties, seen: &seen)
    }
    return properties
  }

  /// Appends a key, replacing the value of a repeated key in place (first position, last value),
  /// in constant time however many keys repeat: past a few keys, `positions` indexes them.
  package static func insert(
    _ key: String, _ value: PropertyValue, into properties: inout Properties,
    seen positions: inout [String: Int]?
  ) {
    if positions == nil {
      if properties.count < 12 {
        if properties[key] != nil { properties[key] = value } else { properties.appendUnchecked(key, value) }
        return
      }
      positions = properties.firstPositions()
    }
    if let position = positions![key] {
      properties.replaceValue(at: position, with: value)
    } else {
      positions![key] = properties.count
      properties.appendUnchecked(key, value)
    }
  }
}
