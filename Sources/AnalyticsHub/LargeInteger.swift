/// An integer too large for `Int` (below `Int.min` or above `Int.max`), kept exactly as its
/// decimal digits, so a value like `18446744073709551616` read from a recording or a plan is
/// written back unchanged and compared exactly, never rounded through `Double`.
///
/// ```swift
/// let value = PropertyValue.integer(digits: "18446744073709551616")  // .largeInteger
/// let small = PropertyValue.integer(digits: "42")  // .int(42)
/// ```
public struct LargeInteger: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The digits, `-` first when negative, without leading zeros (`-9223372036854775809`).
  public let text: String

  /// The integer written as `text` (an optional `-` or `+`, then ASCII digits), when it does not
  /// fit in `Int`; `nil` for anything else, an integer that fits included (that is an `.int`).
  public init?(_ text: some StringProtocol) {
    var utf8 = Substring(text).utf8[...]
    var negative = false
    if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      utf8 = utf8.dropFirst()
    }
    guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    let digits = utf8.drop { $0 == 48 }
    // 19 digits or fewer may fit in Int: then it is no large integer.
    if digits.count <= 19, Int(Substring(text)) != nil { return nil }
    self.text = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
  }

  /// Whether it is below zero.
  public var isNegative: Bool { text.utf8.first == UInt8(ascii: "-") }

  /// Its digits without the sign.
  public var magnitude: Substring { isNegative ? text.dropFirst() : Substring(text) }

  /// The nearest `Double` (inexact: for messages and for comparing with a non-integral number).
  public var doubleValue: Double { Double(text) ?? (isNegative ? -.infinity : .infinity) }

  /// The value when it fits in `UInt64` (between `Int.max` and `UInt64.max`), else `nil`.
  public var uint64Value: UInt64? { isNegative ? nil : UInt64(text) }

  public var description: String { text }

  /// Exact order: sign, then the number of digits, then the digits.
  public static func < (lhs: LargeInteger, rhs: LargeInteger) -> Bool {
    NumberOrder.compareDecimal(lhs.text, rhs.text) < 0
  }
}
