import Foundation
import Yams

/// A scalar's type: YAML 1.1's implicit types, or an explicit tag (`!!int 5`).
package enum YAMLScalarTag: UInt8, Sendable {
  case null
  case bool
  case int
  case float
  case str
  case timestamp
  case merge
  case value
  case binary
  /// Another explicit tag (`!!set`, `!custom`): read as a string.
  case other

  /// The type of a tag name (`tag:yaml.org,2002:int`).
  init(_ name: Tag.Name) {
    switch name {
    case .null: self = .null
    case .bool: self = .bool
    case .int: self = .int
    case .float: self = .float
    case .str, .nonSpecific: self = .str
    case .timestamp: self = .timestamp
    case .merge: self = .merge
    case .value: self = .value
    case .binary: self = .binary
    default: self = .other
    }
  }

  /// The type of an explicit tag as libyaml gives it (its handle expanded; `!` is a string).
  init(explicit tag: String) { self.init(Tag.Name(rawValue: tag)) }
}

/// The type of a YAML scalar as Yams's default resolver (YAML 1.1's implicit types) gives it, with
/// the regular expressions only for the rare scalars a byte-level check cannot settle.
///
/// Yams resolves every scalar by trying seven ICU regular expressions in turn, a third of a large
/// plan's load. ``YAMLTree`` resolves each plain scalar's type here instead: names and sentences are told apart from booleans and null by
/// their first byte and a word list; plain decimal integers and floats by a scan; anything else
/// that starts like a number (`0x1F`, `1e5`, `2024-01-31`, `1:30`) goes to Yams's default rules.
enum YAMLScalarTags {
  /// The type of a plain scalar of text `bytes` (without an explicit tag).
  static func implicitTag(of bytes: UnsafeBufferPointer<UInt8>) -> YAMLScalarTag {
    guard let first = bytes.first else { return .null }
    switch first {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: "~"):
      return YAMLScalarTag(implicitName(of: String(decoding: bytes, as: UTF8.self)))
    default:
      // Only the boolean and null words start with a letter; none is longer than five bytes.
      guard bytes.count <= 5 else { return .str }
      return YAMLScalarTag(implicitName(of: String(decoding: bytes, as: UTF8.self)))
    }
  }

  /// The tag Yams's default resolver gives a plain scalar of text `string`.
  static func implicitName(of string: String) -> Tag.Name {
    let bytes = string.utf8
    guard let first = bytes.first else { return .null }
    switch first {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
      return numberLikeName(of: string)
    case UInt8(ascii: "<"): return string == "<<" ? .merge : .str
    case UInt8(ascii: "="): return string == "=" ? .value : .str
    case UInt8(ascii: "~"): return string == "~" ? .null : .str
    default:
      // Only the boolean and null words start with a letter; none is longer than five bytes.
      guard bytes.count <= 5 else { return .str }
      if booleanWords.contains(string) { return .bool }
      if nullWords.contains(string) { return .null }
      return .str
    }
  }

  private static let booleanWords: Set<String> = [
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF",
  ]
  private static let nullWords: Set<String> = ["null", "Null", "NULL"]

  /// `[-+]?(0|[1-9][0-9]*)` is an integer and `[-+]?[0-9]+\.[0-9]*` a float by the default rules
  /// (the integer rule is tried before the float rule); other texts starting with a digit, a sign
  /// or a dot are left to those rules.
  private static func numberLikeName(of string: String) -> Tag.Name {
    var bytes = string.utf8[...]
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      bytes = bytes.dropFirst()
    }
    let digits = bytes.prefix { isDigit($0) }
    let rest = bytes.dropFirst(digits.count)
    if !digits.isEmpty {
      if rest.isEmpty, digits.first != UInt8(ascii: "0") || digits.count == 1 { return .int }
      if rest.first == UInt8(ascii: "."), rest.dropFirst().allSatisfy(isDigit) { return .float }
    }
    return regexName(of: string)
  }

  /// The tag Yams's default resolver gives a plain scalar of text `string`, by its regular
  /// expressions.
  static func regexName(of string: String) -> Tag.Name {
    Resolver.default.resolveTag(of: Node(string))
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
