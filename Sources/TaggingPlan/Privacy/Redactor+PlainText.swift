/// The lines a ``Redactor`` scanned as plain text because they were not JSON records (a line of
/// log text in a recording, a record cut short and finished by hand): their number and the first
/// ``listed`` of them, each with its line number, so that `tagscope redact` can name them.
///
/// A line is plain text when its first byte that is not a blank is not `{` (a blank line is not
/// one), or when it holds, outside its strings, a byte that is no part of JSON (a value written
/// without quotes). The second kind is found while the line is parsed, so it is listed only when
/// some detector could find personal data in it (`PIILineTrigger`); a line starting otherwise
/// than `{` is always listed.
public struct RedactorPlainTextLines: Sendable, Equatable {
  /// How many lines are kept in ``first``.
  public static let listed = 20

  /// The number of plain-text lines.
  public private(set) var count = 0
  /// The first ``listed`` plain-text lines, in order.
  public private(set) var first: [RedactorPlainTextLine] = []

  /// An empty list.
  public init() {}

  mutating func add(line: Int, replaced: Int) {
    count += 1
    if first.count < Self.listed { first.append(RedactorPlainTextLine(line: line, replaced: replaced)) }
  }

  /// Whether `line`'s first byte that is not a blank is something else than `{`.
  static func startsAsText(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
      case UInt8(ascii: "{"): return false
      default: return true
      }
    }
    return false
  }

  /// Whether `byte`, met outside a string and a number, may be part of a JSON line: a blank, a
  /// `:`, or a letter of `true`, `false` or `null`.
  static func isJSONFiller(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ":"),
      UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e"), UInt8(ascii: "f"),
      UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "n"):
      return true
    default:
      return false
    }
  }
}

/// One line a ``Redactor`` scanned as plain text.
public struct RedactorPlainTextLine: Sendable, Equatable {
  /// The line's number, from 1, among the lines given to the redactor.
  public var line: Int
  /// How many values were replaced in it.
  public var replaced: Int

  /// A line and its replacements.
  public init(line: Int, replaced: Int) {
    self.line = line
    self.replaced = replaced
  }
}
