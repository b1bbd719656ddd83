/// What a pattern is made of, once parsed: the regular subset of ECMA-262 regular expressions
/// (the dialect JSON Schema's `pattern` names), without backreferences or lookaround.
indirect enum PatternNode: Sendable {
  case empty
  case scalar(ScalarSet)
  case assertion(PatternAssertion)
  case concatenation([PatternNode])
  case alternation([PatternNode])
  /// `offset`: where its quantifier is in the pattern (in Unicode scalars), for errors.
  case repetition(PatternNode, minimum: Int, maximum: Int?, offset: Int)
}

/// A zero-width test at a position.
enum PatternAssertion: Sendable {
  case start, end, wordBoundary, notWordBoundary

  /// Whether the assertion holds between a scalar of kind `before` and one of kind `after`.
  func holds(before: PositionKind, after: PositionKind) -> Bool {
    switch self {
    case .start: return before == .edge
    case .end: return after == .edge
    case .wordBoundary: return (before == .word) != (after == .word)
    case .notWordBoundary: return (before == .word) == (after == .word)
    }
  }
}

/// What an assertion needs to know of a scalar beside a position: none (the text's start or end),
/// a word scalar (`\w`) or another.
enum PositionKind: UInt8, Sendable, Hashable {
  case edge, word, other
}

/// A set of Unicode scalars: one scalar, a class (`[a-z_]`, `\d`), or any but a line terminator.
struct ScalarSet: Sendable, Hashable {
  enum Item: Sendable, Hashable {
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

  /// Whether the scalar whose value is `value` is in the set (`value` need not be a valid scalar:
  /// the matcher asks with the first value of each run of values the pattern treats alike).
  func contains(value: UInt32) -> Bool {
    var found = false
    for item in items where Self.item(item, contains: value) {
      found = true
      break
    }
    return found != negated
  }

  private static func item(_ item: Item, contains value: UInt32) -> Bool {
    switch item {
    case .range(let low, let high): return value >= low && value <= high
    case .digit: return value >= 0x30 && value <= 0x39
    case .notDigit: return !(value >= 0x30 && value <= 0x39)
    case .word: return isWord(value)
    case .notWord: return !isWord(value)
    case .space: return isSpace(value)
    case .notSpace: return !isSpace(value)
    }
  }

  /// The values where membership in this set may change: the first value of each run of its items
  /// and the first value after it.
  var boundaries: [UInt32] {
    var out: [UInt32] = []
    for item in items {
      switch item {
      case .range(let low, let high): out += [low, high + 1]
      case .digit, .notDigit: out += [0x30, 0x3A]
      case .word, .notWord: out += Self.wordBoundaries
      case .space, .notSpace: out += Self.spaceBoundaries
      }
    }
    return out
  }

  /// Where `\w` starts and stops holding.
  static let wordBoundaries: [UInt32] = [0x30, 0x3A, 0x41, 0x5B, 0x5F, 0x60, 0x61, 0x7B]
  private static let spaceBoundaries: [UInt32] = [
    0x09, 0x0E, 0x20, 0x21, 0xA0, 0xA1, 0x1680, 0x1681, 0x2000, 0x200B, 0x2028, 0x202A, 0x202F, 0x2030,
    0x205F, 0x2060, 0x3000, 0x3001, 0xFEFF, 0xFF00,
  ]

  /// ECMA-262's `\w`: ASCII letters, digits and `_`.
  static func isWord(_ value: UInt32) -> Bool {
    (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
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
