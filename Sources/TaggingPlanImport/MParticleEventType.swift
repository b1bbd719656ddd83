import TaggingPlan

/// An mParticle custom event's type (`custom_event_type`: navigation, location, search,
/// transaction, user_content, user_preference, social, media, other…), which a data point's
/// `match.criteria` names with the event's name: mParticle matches a custom event to a data point
/// by both. The Events API message (`{"event_type": "custom_event", "data": {"event_name",
/// "custom_event_type", "custom_attributes"}}`, mparticle-python-sdk's `AppEvent`; the mobile
/// SDKs' `et`, `Navigation`, as `listen` renames it) carries it at `data.custom_event_type`, so
/// the entry's `messageParams` require it there, one of the types planned.
enum MParticleEventType {
  /// The `messageParams` rule: `data.custom_event_type` is one of `types` (and present).
  static func rule(_ types: [String]) -> NamedConstraints {
    var type = PropertyConstraints()
    type.allowed = types.map { .string($0) }
    type.required = true
    var data = PropertyConstraints()
    data.properties = [NamedConstraints(name: "custom_event_type", constraints: type)]
    return NamedConstraints(name: "data", constraints: data)
  }

  /// A second data point of the event `name`, of type `type` (at `path`): the catalogue keys calls
  /// by name and keeps the first data point's entry, whose type rule then takes `type` too, with a
  /// note (the second's attributes are left out, as the catalogue warns). Nothing changes when the
  /// first entry has no type rule (it takes any type) or already takes `type`.
  static func widen(
    _ catalogue: inout ImportedCatalogue, name: String, with type: String, from path: JSONPath
  ) {
    catalogue.updateCall(name) { entry in
      guard entry.method == "logEvent",
        let index = entry.messageParams.firstIndex(where: { $0.name == "data" }),
        var rules = entry.messageParams[index].constraints.properties,
        let rule = rules.firstIndex(where: { $0.name == "custom_event_type" }),
        var allowed = rules[rule].constraints.allowed, !allowed.contains(.string(type))
      else { return }
      allowed.append(.string(type))
      rules[rule].constraints.allowed = allowed
      entry.messageParams[index].constraints.properties = rules
      entry.notes.append(
        "custom_event_type \(type) too: the data point \(path) of the same name, whose attributes are left out"
      )
    }
  }
}
