import TaggingPlan
import TagscopeVendors

/// An mParticle data plan's `user_identities` data point (its validator's schema: the identities
/// by mParticle's names, `customerid`, `email`, `ios_idfv`, `device_application_stamp`…,
/// `additionalProperties: false` when no other may be sent) as the `methods` entries of the
/// messages that carry identities:
/// - the IDSync calls `identify`, `login` and `logout` (mParticle/mparticle-android-sdk
///   `MParticleIdentityClientImpl.java`, `getBaseJson`): their `known_identities` object, the
///   user's whole identity set, each identity its schema (a closed schema names the only ones);
/// - IDSync's `modify`: each of its `identity_changes` (`identity_type`, `new_value`);
/// - `user_identity_change` (the Events API's `UserIdentityChangeEvent`, the mobile SDKs' `uic`
///   message, which `listen` renames so): its `data.new` (`identity_type`, `identity`).
///
/// A changed identity's value must meet the schema of its type (an `allOf` of `if`/`then`); a
/// removed one's is `null`. The schema's `required` list is not checked: a logout or a change
/// carries only some identities. Each planned identity allows the personal data its type holds
/// (``MParticleIdentityPII``: `ios_idfa` an advertising id, `email` an email address…).
enum MParticleUserIdentities {
  /// The IDSync calls whose `known_identities` hold the user's identities.
  static let identityCalls = ["identify", "login", "logout"]
  /// The IDSync call that changes identities one by one.
  static let modify = "modify"
  /// The Events API `event_type` `listen` records an identity change under (its call's method).
  static let change = "user_identity_change"
  /// Every method an imported point plans.
  static var methods: Set<String> { Set(identityCalls + [modify, change]) }

  /// The entries for the identities `schema` (converted) describes.
  static func entries(_ schema: PropertyConstraints, description: String?, origin: EntryOrigin)
    -> [CatalogueEntry]
  {
    let planned = plannedIdentities(schema, keepingDescriptions: true)
    let closed = schema.additionalProperties == false
    var entries = identityCalls.map { call in
      var entry = CatalogueEntry(
        key: call, description: description, additionalProperties: !closed, params: planned, origin: origin)
      entry.propertiesAt = "known_identities"
      return entry
    }
    var changes = PropertyConstraints()
    changes.types = [.array]
    changes.items = typed(planned, closed: closed, type: "identity_type", value: "new_value")
    var modifyEntry = CatalogueEntry(
      key: modify, description: description,
      params: [NamedConstraints(name: "identity_changes", constraints: changes)], origin: origin)
    modifyEntry.propertiesAt = "."
    entries.append(modifyEntry)
    var changeEntry = CatalogueEntry(
      key: change, description: description,
      params: [
        NamedConstraints(
          name: "new", constraints: typed(planned, closed: closed, type: "identity_type", value: "identity"))
      ], origin: origin)
    changeEntry.propertiesAt = "data"
    entries.append(changeEntry)
    return entries
  }

  /// The batch entry's (``MParticleImporter``, ``TaggingPlan/CallCatalogue/batchMethod``)
  /// parameters for the identities `schema` describes: a batch's Events API `user_identities`
  /// (`{"email": value}`), each planned identity's value its constraints, one not planned refused
  /// when the schema is closed; and the mobile SDKs' `ui` (`[{"n": type number, "i": value}]`,
  /// ``Vendor/MParticleIdentityType``), each identity's value meeting the schema of its type, a
  /// type not planned refused when the schema is closed (a planned identity no mobile type
  /// numbers, `ios_idfv`, is sent elsewhere by the SDKs: in `di`).
  static func batchParams(_ schema: PropertyConstraints) -> [NamedConstraints] {
    let planned = plannedIdentities(schema, keepingDescriptions: false)
    let closed = schema.additionalProperties == false
    var named = PropertyConstraints()
    named.types = [.object, .null]
    named.properties = planned
    named.additionalProperties = closed ? false : nil
    var number = PropertyConstraints()
    number.types = [.integer]
    let numbered = planned.compactMap { identity in
      Vendor.MParticleIdentityType.numbers[identity.name].map { (number: $0, identity: identity) }
    }
    if closed, !numbered.isEmpty { number.allowed = numbered.map { .number(.int($0.number)) } }
    var identity = PropertyConstraints()
    identity.types = [.object]
    identity.properties = [NamedConstraints(name: "n", constraints: number)]
    var keywords = SchemaKeywords<PropertyConstraints>()
    for (type, planned) in numbered where !planned.constraints.isUnconstrained {
      keywords.allOf.append(
        .branch(when: "n", is: .number(.int(type)), then: "i", meets: planned.constraints))
    }
    identity.keywords = keywords.isEmpty ? nil : keywords
    var list = PropertyConstraints()
    list.types = [.array, .null]
    list.items = identity
    return [
      NamedConstraints(name: "user_identities", constraints: named),
      NamedConstraints(name: "ui", constraints: list),
    ]
  }

  /// The identities `schema` plans, none required (a call carries some), each marked `pii` with
  /// the personal data its type holds (``MParticleIdentityPII``): wherever the identity's value
  /// is sent (a call's `known_identities`, a change's new value, a batch's identities) the plan
  /// allows it.
  private static func plannedIdentities(_ schema: PropertyConstraints, keepingDescriptions: Bool)
    -> [NamedConstraints]
  {
    (schema.properties ?? []).map { identity in
      var value = identity.constraints
      value.required = false
      if !keepingDescriptions { value.description = nil }
      value.allowedPII.formUnion(MParticleIdentityPII.kinds(of: identity.name) ?? [])
      return NamedConstraints(name: identity.name, constraints: value)
    }
  }

  /// An object naming an identity's type at `type` (one of `planned` when `closed`) and its value
  /// at `value`, which meets the planned identity's constraints or is `null`.
  private static func typed(_ planned: [NamedConstraints], closed: Bool, type: String, value: String)
    -> PropertyConstraints
  {
    var name = PropertyConstraints()
    name.types = [.string]
    if closed { name.allowed = planned.map { .string($0.name) } }
    var object = PropertyConstraints()
    object.types = [.object]
    object.properties = [NamedConstraints(name: type, constraints: name)]
    var keywords = SchemaKeywords<PropertyConstraints>()
    for identity in planned {
      var constraints = identity.constraints
      constraints.description = nil
      guard !constraints.isUnconstrained else { continue }
      if !constraints.types.isEmpty, !constraints.types.contains(.null) { constraints.types.append(.null) }
      keywords.allOf.append(.branch(when: type, is: .string(identity.name), then: value, meets: constraints))
    }
    object.keywords = keywords.isEmpty ? nil : keywords
    return object
  }
}
