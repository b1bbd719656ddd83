import TaggingPlan

extension PropertyConstraints {
  /// These constraints with each `allOf` branch that is a plain object schema merged in (its
  /// properties unioned with these, `required` unioned, a property both give holding both
  /// constraints): what an event schema written as `allOf: [{$ref: common}, {properties: …}]`
  /// means, as one object. A branch whose meaning depends on which schema lists a key
  /// (`additionalProperties: false` or a schema, `unevaluatedProperties`), or that constrains
  /// more than an object, stays in `allOf`; so do all of them when these constraints have
  /// `additionalProperties: false` or a schema, which only see their own `properties`.
  func mergingObjectBranches() -> PropertyConstraints {
    guard var keywords, !keywords.allOf.isEmpty else { return self }
    let branches = keywords.allOf.map { $0.mergingObjectBranches() }
    guard additionalProperties != false, keywords.additionalSchema == nil else { return self }
    keywords.allOf = []
    var result = self
    result.keywords = keywords
    var kept: [PropertyConstraints] = []
    for branch in branches {
      if branch.isMergeableObject {
        result = Self.conjoined(result, branch)
      } else {
        kept.append(branch)
      }
    }
    if !kept.isEmpty {
      var merged = result.keywords ?? SchemaKeywords()
      merged.allOf += kept
      result.keywords = merged
    }
    return result
  }

  /// Whether this `allOf` branch says only what an object's keys must be: `properties` (with
  /// `required`), `type: object`, keywords that do not depend on which schema lists a key.
  private var isMergeableObject: Bool {
    guard types.isEmpty || types == [.object], additionalProperties != false, items == nil else {
      return false
    }
    if let keywords, keywords.additionalSchema != nil || keywords.unevaluatedSchema != nil {
      return false
    }
    var rest = self
    rest.types = []
    rest.properties = nil
    rest.additionalProperties = nil
    rest.keywords = nil
    rest.required = false
    return rest.isUnconstrained
  }

  /// Both `first` and `second`, exactly: a constraint only one gives is kept, one both give the
  /// same once, and where they differ `first`'s is kept with `second` added as an `allOf`
  /// branch; properties are unioned by name (in `first`'s order, then `second`'s new names),
  /// each conjoined the same way, `items` too.
  static func conjoined(_ first: PropertyConstraints, _ second: PropertyConstraints) -> PropertyConstraints {
    var top = first
    var bottom = second
    (top.properties, top.items, bottom.properties, bottom.items) = (nil, nil, nil, nil)
    bottom.description = nil
    var result: PropertyConstraints
    let over = top.merged(onto: bottom)
    var under = bottom.merged(onto: top)
    under.description = over.description
    if over == under {
      result = over
    } else {
      result = top
      result.required = first.required || second.required
      bottom.required = false
      var keywords = result.keywords ?? SchemaKeywords()
      keywords.allOf.append(bottom)
      result.keywords = keywords
    }
    switch (first.properties, second.properties) {
    case (let lhs?, let rhs?): result.properties = NamedConstraints.conjoined(lhs, rhs)
    case (let lhs?, nil): result.properties = lhs
    case (nil, let rhs?): result.properties = rhs
    default: break
    }
    switch (first.items, second.items) {
    case (let lhs?, let rhs?): result.items = conjoined(lhs, rhs)
    case (let lhs?, nil): result.items = lhs
    case (nil, let rhs?): result.items = rhs
    default: break
    }
    return result
  }
}

extension NamedConstraints {
  /// `first` and `second` unioned by name: `first`'s order, then the names only `second` has; a
  /// name both list holds both constraints (``PropertyConstraints/conjoined(_:_:)``).
  static func conjoined(_ first: [NamedConstraints], _ second: [NamedConstraints]) -> [NamedConstraints] {
    var positions: [String: Int] = [:]
    var result = first
    for (index, property) in result.enumerated() where positions[property.name] == nil {
      positions[property.name] = index
    }
    for property in second {
      if let index = positions[property.name] {
        result[index].constraints = PropertyConstraints.conjoined(
          result[index].constraints, property.constraints)
      } else {
        positions[property.name] = result.count
        result.append(property)
      }
    }
    return result
  }
}
