/// The exact order of numbers of every kind a ``PropertyValue`` holds (`.int`, `.largeInteger`,
/// `.double`): integers are compared digit by digit, never through `Double`, so
/// `18446744073709551616` is above a bound of `18446744073709551615`; a double is compared with an
/// integer by its exact value.
public enum NumberOrder {
  /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`; `nil` when either is not a number
  /// (or is NaN).
  public static func compare(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Int? {
    switch (lhs, rhs) {
    case (.int(let left), .int(let right)): return left < right ? -1 : left == right ? 0 : 1
    case (.double(let left), .double(let right)):
      guard !left.isNaN, !right.isNaN else { return nil }
      return left < right ? -1 : left == right ? 0 : 1
    case (.largeInteger(let left), .largeInteger(let right)): return compareDecimal(left.text, right.text)
    // A large integer is outside Int's range: its sign places it.
    case (.largeInteger(let left), .int): return left.isNegative ? -1 : 1
    case (.int, .largeInteger(let right)): return right.isNegative ? 1 : -1
    case (.int(let left), .double(let right)): return compare(left, right)
    case (.double(let left), .int(let right)): return compare(right, left).map { -$0 }
    case (.largeInteger(let left), .double(let right)): return compare(left, right)
    case (.double(let left), .largeInteger(let right)): return compare(right, left).map { -$0 }
    default: return nil
    }
  }

  /// Whether `lhs` and `rhs` are numbers of equal value (`1`, `1.0`); `false` when either is not a
  /// number.
  public static func same(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Bool { compare(lhs, rhs) == 0 }

  private static let twoTo63 = 9_223_372_036_854_775_808.0

  private static func compare(_ integer: Int, _ number: Double) -> Int? {
    guard !number.isNaN else { return nil }
    if number >= twoTo63 { return -1 }
    if number < -twoTo63 { return 1 }
    let floor = number.rounded(.down)
    let whole = Int(floor)
    if integer != whole { return integer < whole ? -1 : 1 }
    return number == floor ? 0 : -1
  }

  private static func compare(_ integer: LargeInteger, _ number: Double) -> Int? {
    guard !number.isNaN else { return nil }
    if number.isInfinite { return number > 0 ? -1 : 1 }
    // Within Int's range, the large integer's sign places it; beyond it, the double is whole.
    guard abs(number) >= twoTo63 else { return integer.isNegative ? -1 : 1 }
    return compareDecimal(integer.text, decimalText(of: number))
  }

  /// The exact decimal text of a whole `number` (its significand times a power of two).
  static func decimalText(of number: Double) -> String {
    // Little-endian limbs of nine decimal digits.
    var limbs: [UInt64] = []
    var significand = number.significandBitPattern | (1 << 52)
    while significand > 0 {
      limbs.append(significand % 1_000_000_000)
      significand /= 1_000_000_000
    }
    var shift = Int(number.exponent) - 52
    while shift > 0 {
      let step = min(shift, 30)
      shift -= step
      var carry: UInt64 = 0
      for index in limbs.indices {
        let product = limbs[index] << step + carry
        limbs[index] = product % 1_000_000_000
        carry = product / 1_000_000_000
      }
      while carry > 0 {
        limbs.append(carry % 1_000_000_000)
        carry /= 1_000_000_000
      }
    }
    var text = number < 0 ? "-" : ""
    for (index, limb) in limbs.reversed().enumerated() {
      let digits = String(limb)
      if index > 0 { text += String(repeating: "0", count: 9 - digits.count) }
      text += digits
    }
    return text
  }

  /// Whether `value` is a whole multiple of `divisor`, answered exactly when `value` is an integer
  /// (`.int`, `.largeInteger`, or a whole double past 2^53) and `divisor` a whole number up to
  /// `UInt64.max`: `18446744073709551617` is no multiple of 2, though its nearest double is.
  /// `nil` when no exact answer is given here (a fraction on either side, a larger divisor).
  public static func isMultiple(_ value: PropertyValue, of divisor: Double) -> Bool? {
    guard divisor >= 1, divisor < 18_446_744_073_709_551_616.0, divisor == divisor.rounded() else {
      return nil
    }
    let modulus = UInt64(divisor)
    switch value {
    case .int(let number): return UInt64(number.magnitude) % modulus == 0
    case .largeInteger(let number): return remainder(number.magnitude, modulus) == 0
    case .double(let number) where number.isFinite && abs(number) >= 9_007_199_254_740_992:
      return remainder(decimalText(of: abs(number))[...], modulus) == 0
    default: return nil
    }
  }

  /// The remainder of the integer written as `digits` (ASCII digits, no sign) divided by
  /// `modulus`, by long division one digit at a time.
  static func remainder(_ digits: Substring, _ modulus: UInt64) -> UInt64 {
    var rest: UInt64 = 0
    for digit in digits.utf8 {
      // rest × 10 + digit < 10 × modulus: its high word is below `modulus` (or 0 when modulus < 10).
      let wide = rest.multipliedFullWidth(by: 10)
      let (low, carry) = wide.low.addingReportingOverflow(UInt64(digit &- 48))
      rest = modulus.dividingFullWidth((wide.high &+ (carry ? 1 : 0), low)).remainder
    }
    return rest
  }

  /// The order of two integers written in canonical decimal (an optional `-`, no leading zeros):
  /// sign, then the number of digits, then the digits (reversed below zero).
  package static func compareDecimal(_ lhs: String, _ rhs: String) -> Int {
    let leftNegative = lhs.utf8.first == UInt8(ascii: "-")
    let rightNegative = rhs.utf8.first == UInt8(ascii: "-")
    if leftNegative != rightNegative { return leftNegative ? -1 : 1 }
    let left = lhs.utf8.dropFirst(leftNegative ? 1 : 0)
    let right = rhs.utf8.dropFirst(rightNegative ? 1 : 0)
    var order = 0
    if left.count != right.count {
      order = left.count < right.count ? -1 : 1
    } else if let (a, b) = zip(left, right).first(where: { $0 != $1 }) {
      order = a < b ? -1 : 1
    }
    return leftNegative ? -order : order
  }
}

extension PropertyValue {
  /// The integer written as `digits` (an optional sign, then ASCII digits): `.int` when it fits in
  /// `Int`, else `.largeInteger`; `nil` when `digits` is not an integer.
  public static func integer(digits: some StringProtocol) -> PropertyValue? {
    if let small = Int(Substring(digits)) { return .int(small) }
    return LargeInteger(digits).map { .largeInteger($0) }
  }
}
