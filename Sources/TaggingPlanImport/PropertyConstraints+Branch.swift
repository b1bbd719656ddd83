import TaggingPlan

extension PropertyConstraints {
  /// The rule "when `key` is `name` (a text, or a mobile SDK's identity type number), `valueKey`
  /// meets `value`": an `if`/`then` branch, one of an `allOf`, as the mParticle importers plan a
  /// value by the name beside it (a user attribute's, an identity's).
  static func branch(
    when key: String, is name: ScalarValue, then valueKey: String, meets value: PropertyConstraints
  )
    -> PropertyConstraints
  {
    var named = PropertyConstraints()
    named.constant = name
    named.required = true
    var condition = PropertyConstraints()
    condition.properties = [NamedConstraints(name: key, constraints: named)]
    var consequence = PropertyConstraints()
    consequence.properties = [NamedConstraints(name: valueKey, constraints: value)]
    var keywords = SchemaKeywords<PropertyConstraints>()
    keywords.ifSchema = condition
    keywords.thenSchema = consequence
    var rule = PropertyConstraints()
    rule.keywords = keywords
    return rule
  }
}
