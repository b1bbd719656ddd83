import AnalyticsHub

extension PropertyRule {
  /// What `unevaluatedProperties` finds wrong with `object`: the first key (in key order) that
  /// ``evaluatedKeys(of:memo:includingOwn:)`` leaves out and whose value does not meet it.
  func unevaluatedProblem(
    _ unevaluated: PropertyRule, _ object: Properties, memo: inout PatternMemo
  ) -> ValueProblem? {
    let evaluated = evaluatedKeys(of: object, memo: &memo, includingOwn: false)
    for key in object.keys.sorted() where !evaluated.contains(key) {
      guard let value = object[key], let problem = unevaluated.firstProblem(with: value, memo: &memo) else {
        continue
      }
      return ValueProblem(
        rule: problem.rule, found: "has key \(Self.quoted(.string(key))), which \(problem.found)",
        expected: "\(problem.expected) (unevaluatedProperties)")
    }
    return nil
  }

  /// The keys of `object` this rule evaluates (JSON Schema's annotations, for
  /// `unevaluatedProperties`): those its `properties` and `patternProperties` name; all of them
  /// with `additionalProperties` (`false` or a schema), or its own `unevaluatedProperties` when
  /// `includingOwn`; and those of the subschemas `object` meets (`allOf`, `anyOf`, `oneOf`,
  /// `if` with `then` or `else`, `dependentSchemas`). An `additionalProperties: true` the plan
  /// writes is the default and evaluates nothing.
  func evaluatedKeys(of object: Properties, memo: inout PatternMemo, includingOwn: Bool = true) -> Set<String>
  {
    if !additionalProperties || keywords?.additionalSchema != nil
      || (includingOwn && keywords?.unevaluatedSchema != nil)
    {
      return Set(object.keys)
    }
    var keys = Set((properties ?? []).map(\.name).filter { object[$0] != nil })
    guard let keywords else { return keys }
    for key in object.keys where keywords.patternProperties.contains(where: { memo.matches($0.pattern, key) })
    {
      keys.insert(key)
    }
    let value = PropertyValue.object(object)
    var met: [PropertyRule] = []
    for branch in keywords.allOf + keywords.anyOf + keywords.oneOf where branch.conforms(value, memo: &memo) {
      met.append(branch)
    }
    if let condition = keywords.ifSchema {
      if condition.conforms(value, memo: &memo) {
        met.append(condition)
        if let then = keywords.thenSchema { met.append(then) }
      } else if let otherwise = keywords.elseSchema {
        met.append(otherwise)
      }
    }
    for dependency in keywords.dependentSchemas where object[dependency.name] != nil {
      met.append(dependency.schema)
    }
    for schema in met where schema.conforms(value, memo: &memo) {
      keys.formUnion(schema.evaluatedKeys(of: object, memo: &memo))
    }
    return keys
  }
}

extension PropertyRule {
  /// What `unevaluatedItems` finds wrong with `elements`: the first element that
  /// ``evaluatedIndexes(of:memo:includingOwn:)`` leaves out and that does not meet it.
  func unevaluatedItemProblem(
    _ unevaluated: PropertyRule, _ elements: [PropertyValue], memo: inout PatternMemo
  ) -> ValueProblem? {
    let evaluated = evaluatedIndexes(of: elements, memo: &memo, includingOwn: false)
    for (index, element) in elements.enumerated() where !evaluated.contains(index) {
      if let problem = unevaluated.firstProblem(with: element, memo: &memo) {
        return ValueProblem(
          rule: problem.rule, found: "has item \(index), which \(problem.found)",
          expected: "\(problem.expected) (unevaluatedItems)")
      }
    }
    return nil
  }

  /// The positions of `elements` this rule evaluates (for `unevaluatedItems`): all of them with
  /// `items` or, when `includingOwn`, its own `unevaluatedItems`; the first `prefixItems.count`;
  /// those meeting `contains`; and those of the subschemas the array meets (`allOf`, `anyOf`,
  /// `oneOf`, `if` with `then` or `else`).
  func evaluatedIndexes(of elements: [PropertyValue], memo: inout PatternMemo, includingOwn: Bool = true)
    -> Set<Int>
  {
    if items != nil || (includingOwn && keywords?.unevaluatedItems != nil) { return Set(elements.indices) }
    guard let keywords else { return [] }
    var indexes = Set(0..<min(keywords.prefixItems.count, elements.count))
    if let contains = keywords.contains {
      for (index, element) in elements.enumerated() where contains.conforms(element, memo: &memo) {
        indexes.insert(index)
      }
    }
    let value = PropertyValue.array(elements)
    var met: [PropertyRule] = keywords.allOf + keywords.anyOf + keywords.oneOf
    if let condition = keywords.ifSchema {
      if condition.conforms(value, memo: &memo) {
        met.append(condition)
        if let then = keywords.thenSchema { met.append(then) }
      } else if let otherwise = keywords.elseSchema {
        met.append(otherwise)
      }
    }
    for schema in met where schema.conforms(value, memo: &memo) {
      indexes.formUnion(schema.evaluatedIndexes(of: elements, memo: &memo))
    }
    return indexes
  }
}
