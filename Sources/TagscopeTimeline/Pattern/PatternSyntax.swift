/// What a pattern is made of, once parsed: the regular subset of ECMA-262 regular expressions
/// (the dialect JSON Schema's `pattern` names), without backreferences or lookaround.
indirect enum PatternNode: Sendable {
  case empty
  case scalar(ScalarSet)
  case assertion(PatternAssertion)
  case concatenation([PatternNode])
  case alternation([PatternNode])
  case repetition(PatternNode, minimum: Int, maximum: Int?)
}

/// A zero-width test at a position.
enum PatternAssertion: Sendable {
  case start, end, wordBoundary, notWordBoundary

  /// Whether the assertion holds between `before` and `after` (`nil` at the text's ends).
  func holds(before: Unicode.Scalar?, after: Unicode.Scalar?) -> Bool {
    switch self {
    case .start: return before == nil
    case .end: return after == nil
    case .wordBoundary: return ScalarSet.isWord(before) != ScalarSet.isWord(after)
    case .notWordBoundary: return ScalarSet.isWord(before) == ScalarSet.isWord(after)
    }
  }
}

/// A set of Unicode scalars: one scalar, a class (`[a-z_]`, `\d`), or any but a line terminator.
struct ScalarSet: Sendable {
  enum Item: Sendable {
    case range(UInt32, UInt32)
    case digit, word, space
    case notDigit, notWord, notSpace
  }

  var items: [Item]
  var negated: Bool

  static func single(_ scalar: Unicode.Scalar) -> ScalarSet {
    ScalarSet(items: [.range(scalar.value, scalar.value)], negated: false)
  }

  /// `.`: anything but a line terminator.
  static let dot = ScalarSet(
    items: [.range(0x0A, 0x0A), .range(0x0D, 0x0D), .range(0x2028, 0x2029)], negated: true)

  func contains(_ scalar: Unicode.Scalar) -> Bool {
    var found = false
    for item in items where Self.item(item, contains: scalar) {
      found = true
      break
    }
    return found != negated
  }

  private static func item(_ item: Item, contains scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    switch item {
    case .range(let low, let high): return value >= low && value <= high
    case .digit: return value >= 0x30 && value <= 0x39
    case .notDigit: return !(value >= 0x30 && value <= 0x39)
    case .word: return isWord(scalar)
    case .notWord: return !isWord(scalar)
    case .space: return isSpace(value)
    case .notSpace: return !isSpace(value)
    }
  }

  /// ECMA-262's `\w`: ASCII letters, digits and `_`.
  static func isWord(_ scalar: Unicode.Scalar?) -> Bool {
    guard let value = scalar?.value else { return false }
    return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
      || (value >= 0x61 && value <= 0x7A)
      || value == 0x5F
  }

  /// ECMA-262's `\s`: white space and line terminators.
  static func isSpace(_ value: UInt32) -> Bool {
    switch value {
    case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
      return true
    default: return false
    }
  }
}

/// Why a pattern was not accepted, and where (a scalar offset into it).
public struct PatternError: Error, Sendable, CustomStringConvertible {
  /// The offset, in Unicode scalars, where the problem was found.
  public var offset: Int
  /// What is wrong.
  public var reason: String

  public var description: String { "at \(offset): \(reason)" }
}
