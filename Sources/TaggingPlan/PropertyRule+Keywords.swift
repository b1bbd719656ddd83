import AnalyticsHub

extension PropertyRule {
  /// Whether `value` meets the rule, its content included.
  public func conforms(_ value: PropertyValue, memo: inout PatternMemo) -> Bool {
    firstProblem(with: value, memo: &memo) == nil
  }

  /// The first thing wrong with `value`, its content included: a problem inside it says where
  /// (`has cart.items[2].price, which is missing`).
  func firstProblem(with value: PropertyValue, memo: inout PatternMemo) -> ValueProblem? {
    if let problem = problem(with: value, memo: &memo) { return problem }
    guard checksContent else { return nil }
    var problems: [ContentProblem] = []
    contentProblems(in: value, path: "", missing: .missingProperty, memo: &memo, into: &problems)
    guard let first = problems.first else { return nil }
    return ValueProblem(
      rule: first.rule, found: "has \(first.path), which \(first.found)",
      expected: "(plan line \(first.line)) \(first.expected)")
  }

  /// What the rarer keywords find wrong with `value`, `nil` when it conforms.
  func keywordProblem(
    _ keywords: SchemaKeywords<PropertyRule>, _ value: PropertyValue, memo: inout PatternMemo
  ) -> ValueProblem? {
    if let number = value.doubleValue, let problem = numberProblem(keywords, number, value) {
      return problem
    }
    switch value {
    case .array(let elements):
      if let problem = arrayProblem(keywords, elements, memo: &memo) { return problem }
    case .object(let object):
      if let problem = objectProblem(keywords, object, memo: &memo) { return problem }
    default:
      break
    }
    return compositionProblem(keywords, value, memo: &memo)
  }

  private func invalid(_ found: String, _ expected: String) -> ValueProblem {
    ValueProblem(rule: .invalidValue, found: found, expected: expected)
  }

  private func numberProblem(
    _ keywords: SchemaKeywords<PropertyRule>, _ number: Double, _ value: PropertyValue
  ) -> ValueProblem? {
    // An integer is divided exactly (2^53 + 1 is no multiple of 2, though its double is).
    if let divisor = keywords.multipleOf,
      !(NumberOrder.isMultiple(value, of: divisor) ?? Self.isMultiple(number, of: divisor))
    {
      return invalid("is \(value.displayText)", "expects a multiple of \(Self.format(divisor))")
    }
    if let bound = keywords.exclusiveMinimum, let order = NumberOrder.compare(value, bound), order <= 0 {
      return invalid("is \(value.displayText)", "expects more than \(Self.format(bound))")
    }
    if let bound = keywords.exclusiveMaximum, let order = NumberOrder.compare(value, bound), order >= 0 {
      return invalid("is \(value.displayText)", "expects less than \(Self.format(bound))")
    }
    return nil
  }

  /// Whether `number` is a whole multiple of `divisor` (to a billionth, for decimal fractions
  /// binary numbers cannot hold exactly).
  static func isMultiple(_ number: Double, of divisor: Double) -> Bool {
    let quotient = number / divisor
    guard quotient.isFinite else { return false }
    return abs(quotient - quotient.rounded()) < 1e-9
  }

  private func arrayProblem(
    _ keywords: SchemaKeywords<PropertyRule>, _ elements: [PropertyValue], memo: inout PatternMemo
  ) -> ValueProblem? {
    let count = elements.count
    if let minItems = keywords.minItems, count < minItems {
      return invalid("has \(Self.count(count, "item"))", "expects at least \(minItems)")
    }
    if let maxItems = keywords.maxItems, count > maxItems {
      return invalid("has \(Self.count(count, "item"))", "allows at most \(maxItems)")
    }
    if keywords.uniqueItems {
      var seen: [PropertyValue: Int] = [:]
      for (index, element) in elements.enumerated() {
        if let first = seen.updateValue(index, forKey: Self.canonical(element)) {
          return invalid(
            "repeats item \(first) at index \(index) (\(Self.quoted(element, key: name)))",
            "expects unique items")
        }
      }
    }
    if let contains = keywords.contains {
      var matching = 0
      for element in elements where contains.conforms(element, memo: &memo) { matching += 1 }
      let least = keywords.minContains ?? 1
      if matching < least {
        return invalid(
          "has \(Self.count(matching, "item")) matching contains",
          "expects at least \(least)\(keywords.minContains == nil ? "" : " (minContains)")")
      }
      if let most = keywords.maxContains, matching > most {
        return invalid(
          "has \(Self.count(matching, "item")) matching contains", "allows at most \(most) (maxContains)")
      }
    }
    if let unevaluated = keywords.unevaluatedItems {
      return unevaluatedItemProblem(unevaluated, elements, memo: &memo)
    }
    return nil
  }

  private func objectProblem(
    _ keywords: SchemaKeywords<PropertyRule>, _ object: Properties, memo: inout PatternMemo
  ) -> ValueProblem? {
    if let least = keywords.minProperties, object.count < least {
      return invalid("has \(Self.count(object.count, "key"))", "expects at least \(least)")
    }
    if let most = keywords.maxProperties, object.count > most {
      return invalid("has \(Self.count(object.count, "key"))", "allows at most \(most)")
    }
    if let names = keywords.propertyNames {
      for key in object.keys {
        if let problem = names.firstProblem(with: .string(key), memo: &memo) {
          return ValueProblem(
            rule: problem.rule, found: "has key \(Self.quoted(.string(key))), which \(problem.found)",
            expected: "\(problem.expected) (propertyNames)")
        }
      }
    }
    for dependency in keywords.dependentRequired where object[dependency.name] != nil {
      let absent = dependency.required.filter { object[$0] == nil }
      if !absent.isEmpty {
        return invalid(
          "has \(dependency.name) but not \(absent.joined(separator: ", "))",
          "requires \(dependency.required.joined(separator: ", ")) with \(dependency.name)")
      }
    }
    for dependency in keywords.dependentSchemas where object[dependency.name] != nil {
      if let problem = dependency.schema.firstProblem(with: .object(object), memo: &memo) {
        return ValueProblem(
          rule: problem.rule, found: problem.found,
          expected: "\(problem.expected) (dependentSchemas of \(dependency.name))")
      }
    }
    if let unevaluated = keywords.unevaluatedSchema {
      return unevaluatedProblem(unevaluated, object, memo: &memo)
    }
    return nil
  }

  private func compositionProblem(
    _ keywords: SchemaKeywords<PropertyRule>, _ value: PropertyValue, memo: inout PatternMemo
  ) -> ValueProblem? {
    for (index, branch) in keywords.allOf.enumerated() {
      if let problem = branch.firstProblem(with: value, memo: &memo) {
        return ValueProblem(
          rule: problem.rule, found: problem.found, expected: "\(problem.expected) (allOf[\(index)])")
      }
    }
    if !keywords.anyOf.isEmpty, !keywords.anyOf.contains(where: { $0.conforms(value, memo: &memo) }) {
      return invalid(
        "is \(Self.describe(value, key: name))",
        "expects a value matching one of anyOf's \(keywords.anyOf.count) schemas")
    }
    if !keywords.oneOf.isEmpty {
      var matching = 0
      for branch in keywords.oneOf where branch.conforms(value, memo: &memo) { matching += 1 }
      if matching != 1 {
        return invalid(
          "is \(Self.describe(value, key: name)) and matches \(matching) of oneOf's \(keywords.oneOf.count) schemas",
          "expects exactly one")
      }
    }
    if let not = keywords.not, not.conforms(value, memo: &memo) {
      return invalid(
        "is \(Self.describe(value, key: name))",
        not == PropertyRule(name: not.name, location: not.location)
          ? "allows no value (not: {})" : "expects a value not matching the schema of not")
    }
    if let condition = keywords.ifSchema {
      let holds = condition.conforms(value, memo: &memo)
      if let branch = holds ? keywords.thenSchema : keywords.elseSchema,
        let problem = branch.firstProblem(with: value, memo: &memo)
      {
        return ValueProblem(
          rule: problem.rule, found: problem.found,
          expected: "\(problem.expected) (\(holds ? "then" : "else"))")
      }
    }
    return nil
  }

  /// `1 item`, `3 keys`.
  private static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// The value with numbers as doubles and keys sorted, so equal values (`1` and `1.0`, objects in
  /// any key order) are one dictionary key.
  static func canonical(_ value: PropertyValue) -> PropertyValue {
    switch value {
    case .int(let number): return .double(Double(number))
    case .array(let elements): return .array(elements.map(canonical))
    case .object(let object):
      return .object(Properties(object.sorted { $0.key < $1.key }.map { ($0.key, canonical($0.value)) }))
    default: return value
    }
  }
}
