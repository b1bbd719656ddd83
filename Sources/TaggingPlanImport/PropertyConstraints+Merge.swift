extension PropertyConstraints {
  /// These constraints laid over `base`: what these say wins, what only `base` says is kept,
  /// properties both list are merged, properties only `base` lists are added after these; the
  /// kinds of personal data either allows are allowed.
  func merged(onto base: PropertyConstraints) -> PropertyConstraints {
    var result = self
    if result.types.isEmpty { result.types = base.types }
    result.required = required || base.required
    result.allowed = allowed ?? base.allowed
    result.constant = constant ?? base.constant
    result.pattern = pattern ?? base.pattern
    result.format = format ?? base.format
    result.allowedPII = allowedPII.union(base.allowedPII)
    result.minimumValue = minimumValue ?? base.minimumValue
    result.maximumValue = maximumValue ?? base.maximumValue
    result.minLength = minLength ?? base.minLength
    result.maxLength = maxLength ?? base.maxLength
    // Both apply (a `$ref` and its siblings): a `false` on either side is kept.
    result.additionalProperties =
      additionalProperties == false || base.additionalProperties == false
      ? false : additionalProperties ?? base.additionalProperties
    result.description = description ?? base.description
    switch (items, base.items) {
    case (let top?, let bottom?): result.items = top.merged(onto: bottom)
    case (nil, let bottom?): result.items = bottom
    default: break
    }
    switch (keywords, base.keywords) {
    case (nil, let bottom?): result.keywords = bottom
    case (var top?, let bottom?):
      var under = PropertyConstraints()
      under.keywords = bottom
      top.allOf.append(under)
      result.keywords = top
    default: break
    }
    switch (properties, base.properties) {
    case (let top?, let bottom?): result.properties = NamedConstraints.merged(top, onto: bottom)
    case (nil, let bottom?): result.properties = bottom
    default: break
    }
    return result
  }
}

extension NamedConstraints {
  /// `top` laid over `bottom` by name: `top`'s order, then the names only `bottom` has.
  static func merged(_ top: [NamedConstraints], onto bottom: [NamedConstraints]) -> [NamedConstraints] {
    // By name, first of each (lookups, not a scan of the other list per property).
    var below: [String: Int] = [:]
    for (index, property) in bottom.enumerated() where below[property.name] == nil {
      below[property.name] = index
    }
    let above = Set(top.map(\.name))
    var result = top.map { property in
      guard let under = below[property.name].map({ bottom[$0] }) else { return property }
      return NamedConstraints(
        name: property.name, constraints: property.constraints.merged(onto: under.constraints))
    }
    for property in bottom where !above.contains(property.name) {
      result.append(property)
    }
    return result
  }
}
