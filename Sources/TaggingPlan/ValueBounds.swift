import AnalyticsHub

/// The value constraints of a ``PropertyRule`` (`enum`, `const`, `format`, `pattern`, lengths,
/// bounds) and its description: kept out of line, as most rules have none of them.
struct ValueBounds: Sendable, Hashable {
  var allowed: [PropertyValue]?
  var pattern: PlanPattern?
  /// `minimum` and `maximum`, exactly as the plan wrote them (`.int`, `.largeInteger`, `.double`).
  var minimum: PropertyValue?
  var maximum: PropertyValue?
  var minLength: Int?
  var maxLength: Int?
  var constant: PropertyValue?
  var description: String?
  var format: ValueFormat?

  /// What is wrong with a value of the rule's type: outside enum, const, format, pattern, length
  /// or range; `nil` when it conforms. `key` names the value, for its masking in the message.
  func problem(with value: PropertyValue, key: String, memo: inout PatternMemo) -> ValueProblem? {
    if let allowed, !allowed.contains(where: { PropertyRule.same($0, value) }) {
      return ValueProblem(
        rule: .invalidValue, found: "is \(PropertyRule.quoted(value, key: key))",
        expected: "allows only " + allowed.map { PropertyRule.quoted($0) }.joined(separator: ", "))
    }
    if let constant, !PropertyRule.same(constant, value) {
      return ValueProblem(
        rule: .invalidValue, found: "is \(PropertyRule.quoted(value, key: key))",
        expected: "expects \(PropertyRule.quoted(constant))")
    }
    if let format, case .string(let text) = value, !format.accepts(text) {
      return ValueProblem(
        rule: .invalidValue, found: "is \(PropertyRule.quoted(value, key: key))",
        expected: "expects format \(format.rawValue)")
    }
    if case .string(let text) = value {
      if let pattern, !memo.matches(pattern, text) {
        return ValueProblem(
          rule: .invalidValue, found: "is \(PropertyRule.quoted(value, key: key))",
          expected: "expects pattern \(pattern.source)")
      }
      // JSON Schema lengths count Unicode code points; UTF-8 bounds decide most cases without
      // counting (a code point is 1 to 4 bytes).
      let bytes = text.utf8.count
      if let minLength, bytes < minLength * 4 {
        let length = text.unicodeScalars.count
        if length < minLength {
          return ValueProblem(
            rule: .invalidValue, found: "is \(length) characters long",
            expected: "expects at least \(minLength)")
        }
      }
      if let maxLength, bytes > maxLength {
        let length = text.unicodeScalars.count
        if length > maxLength {
          return ValueProblem(
            rule: .invalidValue, found: "is \(length) characters long",
            expected: "allows at most \(maxLength)")
        }
      }
    }
    // Compared exactly (`NumberOrder`): 18446744073709551616 is above 18446744073709551615.
    if let minimum, let order = NumberOrder.compare(value, minimum), order < 0 {
      return ValueProblem(
        rule: .invalidValue, found: "is \(value.displayText)",
        expected: "expects at least \(PropertyRule.format(minimum))")
    }
    if let maximum, let order = NumberOrder.compare(value, maximum), order > 0 {
      return ValueProblem(
        rule: .invalidValue, found: "is \(value.displayText)",
        expected: "expects at most \(PropertyRule.format(maximum))")
    }
    return nil
  }
}
