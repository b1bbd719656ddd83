import AnalyticsHub
import TaggingPlan

/// One generated tag case: a planned entry (or a catalogue call) with its Swift name and fields.
struct TagCase {
  /// The tag's name in the plan (`playPodcast`).
  var tagName: String
  /// The Swift case name, escaped.
  var name: String
  /// The tag's properties.
  var fields: [Field]
  /// Values a provider call needs that are not tag properties (`source_screen`): parameters of
  /// the case, kept out of the tag's properties.
  var extras: [Field]
  var documentation: String
  /// The entry's journey rules, one doc line each (`Sent at most once per session.`).
  var journeyLines: [String] = []
  /// The plan entry, for a section tag.
  var entry: PlanEntry?
  /// The catalogue entry and its provider, for a catalogue call.
  var catalogueCall: (provider: String, call: CatalogueCall)?

  /// Every parameter of the case, properties then extras, constants left out.
  var parameters: [Field] { (fields + extras).filter { $0.constant == nil } }

  /// The case name without backticks, for doc text and comparisons; code writes ``name``.
  var label: String { NameScope.unescaped(name) }
}

/// One generated tag type: the enum of one kind (screens, actions…).
struct TagType {
  /// The `Taxonomy` associated type it is (`Screen`, `UserAction`…).
  var role: String
  var name: String
  var section: PlanSection
  var cases: [TagCase]
  var documentation: String

  /// Whether any case carries values a provider needs besides its properties.
  var hasExtras: Bool { cases.contains { !$0.extras.isEmpty } }
}

/// Everything generated from one plan: names decided once, so every file agrees.
struct TaxonomyModel {
  var prefix: String
  var taxonomyName: String
  /// The enum of the provider mappings.
  var mappingsName: String
  /// The enum that sends every tag once (`--tour`).
  var tourName: String
  /// The helper checking string formats in debug builds.
  var formatsName: String
  var tagTypes: [TagType]
  var enums: [EnumDeclaration]
  var structs: [StructDeclaration]
  var plan: Plan
  /// For a catalogue-only plan: the section its calls are sent as.
  var isCatalogueOnly: Bool
  /// For a plan with sections and catalogues: the catalogue calls no section expects, each a
  /// typed function on its provider's adapter.
  var adapterCalls: [TagCase]

  /// The members a tag enum declares itself, which no case may be named.
  static let tagMembers: Set<String> = [
    "name", "properties", "eventType", "providerParameters", "hashValue", "hash",
  ]

  init(plan: Plan, moduleName: String) {
    self.plan = plan
    prefix = SwiftIdentifier.bare(moduleName, style: .upper)
    var types = NameScope(reserved: SwiftIdentifier.suffixed)
    taxonomyName = types.claimBare(prefix + "Taxonomy")
    mappingsName = types.claimBare(prefix + "Mappings")
    tourName = types.claimBare(prefix + "Tour")
    formatsName = types.claimBare(prefix + "Formats")
    var shapes = ShapeBuilder(types: types)
    var tagTypes: [TagType] = []
    isCatalogueOnly = plan.entries.isEmpty && !plan.catalogues.isEmpty
    let roles: [(PlanSection, String, String)] = [
      (.screens, "Screen", "Screen"), (.actions, "UserAction", "Action"), (.events, "Event", "Event"),
      (.states, "State", "State"), (.timed, "TimedEvent", "TimedEvent"),
    ]
    for (section, role, suffix) in roles {
      let entries = plan.entries.filter { $0.section == section }
      let typeName = shapes.types.claimBare(prefix + suffix)
      var caseScope = NameScope(reserved: Self.tagMembers)
      var cases: [TagCase] = []
      if isCatalogueOnly && section == .events {
        for (provider, call) in Self.catalogueCalls(plan) {
          cases.append(shapes.catalogueCase(provider, call, in: typeName, scope: &caseScope))
        }
      }
      for entry in entries {
        let caseName = caseScope.claim(entry.name, style: .lower)
        var fieldScope = NameScope()
        let owner = typeName + SwiftIdentifier.bare(NameScope.unescaped(caseName), style: .upper)
        let fields = shapes.fields(entry.properties ?? [], owner: owner, scope: &fieldScope)
        var extras: [Field] = []
        for key in Self.extraKeys(entry) {
          var rule = PropertyRule(name: key.name, location: entry.location)
          rule.required = true
          if let given = key.rule { rule = given }
          rule.required = true
          rule.description =
            "`\(key.name)` for \(key.provider) (not a tag property; nothing in the hub's context is it)"
          extras.append(shapes.field(rule, owner: owner, scope: &fieldScope))
        }
        let summary =
          entry.description.map(Documentation.oneLine) ?? "The plan's \(entry.section.noun) `\(entry.name)`."
        var tag = TagCase(
          tagName: entry.name, name: caseName, fields: fields, extras: extras, documentation: summary,
          entry: entry, catalogueCall: nil)
        tag.journeyLines = plan.journeyDocLines(for: entry).map(Documentation.oneLine)
        cases.append(tag)
      }
      guard !cases.isEmpty else { continue }
      tagTypes.append(
        TagType(
          role: role, name: typeName, section: section, cases: cases,
          documentation: "The \(section == .timed ? "timed events" : section.key) of plan \(plan.title)."))
    }
    self.tagTypes = tagTypes
    // A plan with sections and catalogues: the catalogue calls no section expects become typed
    // adapter functions of their own, outside the taxonomy.
    var adapterCalls: [TagCase] = []
    if !isCatalogueOnly {
      var adapterScope = NameScope()
      let owner = shapes.types.claimBare(prefix + "Call")
      for (provider, call) in Self.catalogueCalls(plan) where !Self.isExpected(call, of: provider, in: plan) {
        adapterCalls.append(shapes.catalogueCase(provider, call, in: owner, scope: &adapterScope))
      }
    }
    self.adapterCalls = adapterCalls
    enums = shapes.enums
    structs = shapes.structs
  }

  /// Every catalogue call with its provider, in plan order.
  static func catalogueCalls(_ plan: Plan) -> [(provider: String, call: CatalogueCall)] {
    plan.catalogues.flatMap { catalogue in catalogue.entries.map { (catalogue.provider, $0) } }
  }

  /// Whether a section entry expects `call` of `provider` (same name, or same method when the
  /// catalogue entry has no name).
  static func isExpected(_ call: CatalogueCall, of provider: String, in plan: Plan) -> Bool {
    plan.entries.contains { entry in
      entry.providers.contains { expected in
        expected.provider == provider
          && expected.calls.contains { planned in
            if let name = call.name { return planned.name == name }
            return planned.method == call.method
          }
      }
    }
  }

  /// For a catalogue's method entries (no call name), the identifier the call names, by method:
  /// what Segment's and RudderStack's `identify`, `group`, `alias`, `screen` and `page` carry.
  static let identifierLabels: [String: String] = [
    "identify": "userId", "group": "groupId", "alias": "newId", "screen": "title", "page": "name",
  ]

  /// Provider parameters the entry plans that no property, the timed `duration`, a state's one
  /// property or the hub's context (``ContextParameter``) supplies: the app passes them with the tag.
  static func extraKeys(_ entry: PlanEntry) -> [(name: String, provider: String, rule: PropertyRule?)] {
    var keys: [(name: String, provider: String, rule: PropertyRule?)] = []
    let properties = Set((entry.properties ?? []).map(\.name))
    for provider in entry.providers {
      for call in provider.calls where !call.isNone {
        for param in call.params {
          if case .value = param.expectation { continue }
          if ProviderCallStyle.envelopeParameters(provider.provider).contains(param.name) { continue }
          if properties.contains(param.name) || keys.contains(where: { $0.name == param.name }) { continue }
          if entry.section == .timed && (param.name == "duration" || param.name == "cancelled") { continue }
          if ParamSource.soleProperty(entry) != nil || ContextParameter.expression(param.name) != nil {
            continue
          }
          if case .constrained(let rule) = param.expectation {
            keys.append((param.name, provider.provider, rule))
          } else {
            keys.append((param.name, provider.provider, nil))
          }
        }
      }
    }
    return keys
  }
}

/// Where a planned provider parameter's value comes from.
enum ParamSource {
  /// A state with exactly one property (`value`): what its provider parameters carry.
  static func soleProperty(_ entry: PlanEntry) -> String? {
    guard entry.section == .states, let properties = entry.properties, properties.count == 1 else {
      return nil
    }
    return properties[0].name
  }
}

extension ShapeBuilder {
  /// A catalogue call as a case of `typeName`: a parameter per planned parameter, and for a method
  /// entry the identifier the call names (``TaxonomyModel/identifierLabels``).
  mutating func catalogueCase(
    _ provider: String, _ call: CatalogueCall, in typeName: String, scope caseScope: inout NameScope
  ) -> TagCase {
    let raw = call.name ?? call.method ?? "call"
    let caseName = caseScope.claim(raw, style: .lower)
    var fieldScope = NameScope()
    let owner = typeName + SwiftIdentifier.bare(NameScope.unescaped(caseName), style: .upper)
    let fields = fields(call.params, owner: owner, scope: &fieldScope)
    var extras: [Field] = []
    if call.name == nil, let method = call.method, let label = TaxonomyModel.identifierLabels[method] {
      var rule = PropertyRule(name: label, location: call.location)
      rule.required = true
      rule.types = [.string]
      rule.description = "what the \(method) call names (Segment's \(label))"
      extras.append(field(rule, owner: owner, scope: &fieldScope))
    }
    let summary = call.description.map(Documentation.oneLine) ?? "\(provider)'s \(call.label) call."
    return TagCase(
      tagName: raw, name: caseName, fields: fields, extras: extras, documentation: summary, entry: nil,
      catalogueCall: (provider, call))
  }
}
