import TaggingPlan

/// An mParticle data plan's `user_attributes` data point (its validator's schema: the attributes
/// by name, `additionalProperties: false` when no other may be set) as the `methods` entry of the
/// message that sets one: `user_attribute_change`, whose `data` names the attribute and its new
/// value (`user_attribute_name`, `new`, `old`, `deleted`, `is_new_attribute`: mParticle's Events
/// API `UserAttributeChangeEvent`, mparticle-python-sdk's `user_attribute_change_event.py`; the
/// mobile SDKs' `uac` message `n`, `nv`, `ov`, `d`, `na`, which `listen` renames so).
///
/// The entry reads `data` (`propertiesAt`): the name must be one planned when the schema allows no
/// others; each planned attribute's constraints apply to `new` when the message names it (an
/// `allOf` of `if`/`then`). A deleted attribute's `new` may be `null`. In a catalogue whose values
/// arrive as text (mParticle's mobile SDKs send `"45"`), a number, integer or boolean attribute
/// also takes its canonical text (bounds and enums then apply to typed values only). The schema's
/// `required` (attributes a user must have) is not checked: a message sets one attribute.
enum MParticleUserAttributes {
  /// The Events API `event_type` `listen` records a user attribute change under (its call's method).
  static let method = "user_attribute_change"

  /// The entry for the attributes `schema` (converted) describes.
  static func entry(
    _ schema: PropertyConstraints, valuesAsText: Bool, description: String?, origin: EntryOrigin
  ) -> CatalogueEntry {
    let planned = schema.properties ?? []
    var name = PropertyConstraints()
    name.types = [.string]
    if schema.additionalProperties == false { name.allowed = planned.map { .string($0.name) } }
    var entry = CatalogueEntry(
      key: method, description: description,
      params: [NamedConstraints(name: "user_attribute_name", constraints: name)], origin: origin)
    entry.propertiesAt = "data"
    var keywords = SchemaKeywords<PropertyConstraints>()
    for attribute in planned {
      var value = attribute.constraints
      value.required = false
      value.description = nil
      guard !value.isUnconstrained else { continue }
      if valuesAsText { value = acceptingText(value) }
      if !value.types.isEmpty, !value.types.contains(.null) { value.types.append(.null) }
      keywords.allOf.append(
        .branch(when: "user_attribute_name", is: .string(attribute.name), then: "new", meets: value))
    }
    entry.keywords = keywords
    return entry
  }

  /// The batch entry's (``MParticleImporter``, ``TaggingPlan/CallCatalogue/batchMethod``) parameters
  /// for the attributes `schema` describes: a batch's whole attributes object, the Events API's
  /// `user_attributes` and the mobile SDKs' `ua` (`{"name": value}`), each planned attribute's value
  /// its constraints (or its canonical text, with `valuesAsText`), an attribute not planned
  /// refused when the schema allows no others. Its `required` is not checked (see ``entry``).
  static func batchParams(_ schema: PropertyConstraints, valuesAsText: Bool) -> [NamedConstraints] {
    var object = PropertyConstraints()
    object.types = [.object, .null]
    object.properties = (schema.properties ?? []).map { attribute in
      var value = attribute.constraints
      value.required = false
      value.description = nil
      if valuesAsText { value = acceptingText(value) }
      return NamedConstraints(name: attribute.name, constraints: value)
    }
    object.additionalProperties = schema.additionalProperties
    return batchKeys.map { NamedConstraints(name: $0, constraints: object) }
  }

  /// Where a batch holds the user's attributes: the Events API's name, the mobile SDKs' key.
  static let batchKeys = ["user_attributes", "ua"]

  /// `value`, or its canonical text when it wants a number, integer or boolean and not text
  /// (`anyOf` of the two).
  private static func acceptingText(_ value: PropertyConstraints) -> PropertyConstraints {
    let types = Set(value.types)
    guard !types.isEmpty, !types.contains(.string) else { return value }
    var text = PropertyConstraints()
    text.types = [.string]
    if types.contains(.number) {
      text.pattern = #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#
    } else if types.contains(.integer) {
      text.pattern = #"^-?(0|[1-9][0-9]*)$"#
    } else if types.contains(.boolean) {
      text.allowed = [.string("true"), .string("false")]
    } else {
      return value
    }
    var keywords = SchemaKeywords<PropertyConstraints>()
    keywords.anyOf = [value, text]
    var either = PropertyConstraints()
    either.keywords = keywords
    return either
  }
}
