import TaggingPlan

/// Segment Protocols tracking plans: the Config API's (`{"display_name", "rules": {"events": [{"name",
/// "version", "rules": schema}], "identify", "group", "global"}}`), the Public API's rules
/// (`{"data": {"rules": [{"type": "TRACK", "key", "version", "jsonSchema"}]}}`, `{"rules": […]}` or
/// the bare list) and typewriter's `plan.json` (Public API rules, unwrapped).
///
/// Segment checks a call's `properties` (track, page, screen) or `traits` (identify, group):
/// the catalogue says `propertiesAt: properties`, identify and group entries `propertiesAt:
/// traits`, and each entry's `params` are the properties of that object. Imported for another
/// provider, the catalogue follows that provider's messages (``SDKMessagePaths``: Mixpanel's
/// properties are its calls' parameters, PostHog's track calls are `capture`). A rule's JSON Schema
/// either describes the whole message (the Config API's and the Public API's, with
/// `properties.properties` and `properties.traits`), whose object at the entry's field is
/// taken, or that object itself (typewriter's, marked by `eventMetadata`, or a schema none of whose
/// properties is `properties`, `traits` or `context`). A whole-message schema's `context` becomes
/// the entry's `messageParams` (checked against the message an SDK sent); constraints on other
/// fields of the message are left out with a warning. Common (`global`, `COMMON`) rules are merged
/// into every entry, the entry's own constraints winning. Where a name has several versions, the
/// highest is kept. A rule is deprecated only by a real `deprecatedAt` date: the Public API
/// writes Go's zero time (`0001-01-01T00:00:00.000Z`) for rules that are not. Segment never
/// reports identify, group, page, screen or alias calls as unplanned, so those methods are
/// planned (unconstrained but for the common rules) when the source has no rule for them.
struct SegmentImporter {
  private enum Kind: String {
    case track, page, screen, identify, group, common
  }

  /// One rule before versions are compared.
  private struct Rule {
    var kind: Kind
    var key: String?
    var version: Double?
    var description: String?
    var schema: SourceNode?
    /// Whether the schema describes the checked object itself (typewriter's `eventMetadata`).
    var unwrapped = false
    var document: SourceDocument
    var location: SourceLocation
    var path: JSONPath
    var schemaPath: JSONPath
  }

  private var draft: ImportDraft
  /// What the import may expand to, shared by all its documents.
  var budget = ExpansionBudget(sourceBytes: 0)
  private var rules: [Rule] = []
  /// The tool whose plans are read (its name in the notes of the methods planned for it).
  var vendor = "Segment"

  init(provider: String, unplanned: UnplannedCalls) {
    draft = ImportDraft(provider: provider, unplanned: unplanned)
  }

  /// Why `root` is a Segment export (its shape and the keys that say so); `nil` when it is not,
  /// or when RudderStack's marks say a plan of the Config API's shape is RudderTyper's
  /// (``ConfigPlanShape``).
  static func evidence(_ root: SourceNode) -> String? {
    if let list = root.elements {
      return list.first?["jsonSchema"] != nil ? "Segment Public API rules: [].jsonSchema" : nil
    }
    if root["tracking_plans"]?.elements != nil {
      return "Segment Config API tracking plans: tracking_plans[]"
    }
    if let rules = root["rules"] {
      guard rules.members != nil else {
        return rules.elements?.first?["jsonSchema"] != nil
          ? "Segment Public API rules: rules[].jsonSchema" : nil
      }
      let keys = ["events", "global", "identify"].filter { rules[$0] != nil }.map { "rules.\($0)" }
      guard !keys.isEmpty, !ConfigPlanShape.isRudderStacksOnly(root) else { return nil }
      return
        (["Segment Config API tracking plan: " + keys.joined(separator: ", ")]
        + ConfigPlanShape.segmentMarks(root)).joined(separator: ", ")
    }
    if root["data"]?["rules"]?.elements != nil { return "Segment Public API response: data.rules[]" }
    let bare = Self.bareRulesKeys(root)
    guard bare.contains(where: { $0 != "events" }) else { return nil }
    return "Segment Config API rules object (Terraform's rules_json_file): \(bare.joined(separator: ", "))"
  }

  /// The keys of a bare Config API rules object in `root` (`{"global", "events", "identify",
  /// "group"}`, what the Terraform Segment provider's `rules_json_file` holds): its objects and
  /// its `events` list; empty when `root` has another shape.
  private static func bareRulesKeys(_ root: SourceNode) -> [String] {
    guard root["rules"] == nil, let members = root.members else { return [] }
    let objects = ["global", "identify", "group"].filter { root[$0]?.members != nil }
    let events = root["events"]?.elements != nil ? ["events"] : []
    let others = members.contains { !Self.ruleKeys.contains($0.key) }
    return others ? [] : objects + events
  }

  /// The members of a Config API plan's `rules`.
  private static let ruleKeys: Set<String> = [
    "events", "global", "identify", "group", "identify_traits", "group_traits",
  ]

  mutating func read(_ document: SourceDocument) throws(ImportError) {
    let root = document.root
    if let list = root.elements {
      try publicRules(list, document, path: .root)
    } else if let plans = root["tracking_plans"]?.elements {
      for (index, plan) in plans.enumerated() {
        try configPlan(plan, document, path: JSONPath.root.key("tracking_plans").index(index))
      }
    } else if let rules = root["rules"], rules.members != nil {
      try configPlan(root, document, path: .root)
    } else if let list = root["rules"]?.elements {
      draft.offerName(root["name"]?.string)
      for member in root.members ?? [] where !["rules", "name"].contains(member.key) {
        KeyLedger.leaveOut(member, because: KeyLedger.planMetadata)
      }
      try publicRules(list, document, path: JSONPath.root.key("rules"))
    } else if let list = root["data"]?["rules"]?.elements {
      for member in root["data"]?.members ?? [] where member.key != "rules" {
        KeyLedger.leaveOut(member, because: KeyLedger.planMetadata)
      }
      try publicRules(list, document, path: JSONPath.root.keys("data", "rules"))
    } else if !Self.bareRulesKeys(root).isEmpty, let members = root.members {
      try configRules(members, document, path: .root)
    } else {
      throw document.error(
        root,
        "not a Segment tracking plan: expected \"rules\" (Config API), \"data.rules\" (Public API), a list of rules or a rules object (global, events, identify, group)"
      )
    }
  }

  /// A Config API tracking plan.
  private mutating func configPlan(_ plan: SourceNode, _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    let named = ["display_name", "name"].lazy.compactMap { plan.member($0) }.first {
      if case .string = $0.value.value { return true } else { return false }
    }
    draft.offerName(named?.value.string)
    guard let members = plan["rules"]?.members else {
      throw document.error(plan, "a Config API tracking plan needs \"rules\", an object")
    }
    // Besides its rules and its name, a plan holds what describes it (ids, dates, labels).
    for member in plan.members ?? [] where member.key != "rules" {
      if member.key == named?.key, member.value.string != nil {
        KeyLedger.current?.carry(member)  // the plan's name
      } else {
        KeyLedger.leaveOut(member, because: KeyLedger.planMetadata)
      }
    }
    try configRules(members, document, path: path.key("rules"))
  }

  /// The members of a Config API plan's `rules` (at `rulesPath`).
  private mutating func configRules(
    _ members: [SourceNode.Member], _ document: SourceDocument, path rulesPath: JSONPath
  ) throws(ImportError) {
    for member in members {
      let here = rulesPath.key(member.key)
      if !["identify_traits", "group_traits"].contains(member.key) { KeyLedger.current?.carry(member) }
      switch member.key {
      case "events":
        guard let events = member.value.elements else {
          throw document.error(member.value, "rules.events must be a list of events")
        }
        for (index, event) in events.enumerated() {
          let eventPath = here.index(index)
          guard let eventMembers = event.members else {
            throw document.error(event, "an event must be an object")
          }
          Self.leaveOutMetadata(eventMembers)
          guard let kind = eventKind(event, document, path: eventPath) else { continue }
          let name = event["name"]?.string.flatMap { $0.isEmpty ? nil : $0 }
          guard kind != .track || name != nil else {
            throw document.error(event, "the event \(eventPath) has no name")
          }
          rules.append(
            Rule(
              kind: kind, key: kind == .track ? name : nil, version: event["version"]?.number,
              description: event["description"]?.string,
              schema: event["rules"].map { SegmentSchema.normalized($0) },
              unwrapped: event["rules"].map(Self.isUnwrapped) ?? false, document: document,
              location: event.location, path: eventPath,
              schemaPath: eventPath.key("rules")))
        }
      case "identify", "group", "global":
        let kind: Kind = member.key == "global" ? .common : member.key == "identify" ? .identify : .group
        rules.append(
          Rule(
            kind: kind, key: nil, version: nil, description: nil,
            schema: SegmentSchema.normalized(member.value),
            document: document,
            location: member.keyLocation, path: here, schemaPath: here))
      case "identify_traits", "group_traits":
        if member.value.arrayElements?.isEmpty == false {
          draft.warn(
            document.warning(member, here, "\(member.key) (\(here)) is not imported: use identify and group"))
        } else {
          KeyLedger.leaveOut(member, because: "empty lists of the Config API's older traits rules")
        }
      default:
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not imported"))
      }
    }
  }

  /// The kind of a Config API event: `track`, or RudderTyper's `eventType` (`identify`, `group`,
  /// `page`, `screen`: rules of those calls, with an empty name); `nil`, with a warning, for
  /// another type.
  private mutating func eventKind(_ event: SourceNode, _ document: SourceDocument, path: JSONPath) -> Kind? {
    guard let member = event.member("eventType") else { return .track }
    switch member.value.string {
    case "track": return .track
    case "identify": return .identify
    case "group": return .group
    case "page": return .page
    case "screen": return .screen
    default:
      let here = path.key("eventType")
      let type = member.value.string ?? member.value.kindDescription
      draft.warn(
        document.warning(
          member, here,
          "the event type \(type) (\(here)) is not imported: track, identify, group, page and screen are"))
      return nil
    }
  }

  /// Public API rules.
  private mutating func publicRules(_ list: [SourceNode], _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    for (index, rule) in list.enumerated() {
      let here = path.index(index)
      guard let ruleMembers = rule.members else { throw document.error(rule, "a rule must be an object") }
      Self.leaveOutMetadata(ruleMembers)
      guard let type = rule["type"]?.string else {
        throw document.error(rule, "the rule \(here) has no type")
      }
      let key = rule["key"]?.string.flatMap { $0.isEmpty ? nil : $0 }
      // `key: null` is how a rule of an unnamed call (identify, group) says it has none: read.
      _ = rule["key"]?.isNull
      if let deprecated = rule.member("deprecatedAt"), Self.isDeprecation(deprecated.value) {
        let date = deprecated.value.string.map { " since \($0)" } ?? ""
        draft.warn(document.warning(deprecated, here, "the rule \(here) is deprecated\(date): left out"))
        for member in ruleMembers where member.key != "deprecatedAt" {
          KeyLedger.leaveOut(member, because: "deprecated rules (left out)")
        }
        continue
      }
      let kind: Kind
      switch type.uppercased() {
      case "TRACK":
        guard key != nil else {
          throw document.error(rule, "the TRACK rule \(here) has no key (the event name)")
        }
        kind = .track
      case "PAGE": kind = .page
      case "SCREEN": kind = .screen
      case "IDENTIFY": kind = .identify
      case "GROUP": kind = .group
      case "COMMON": kind = .common
      default:
        draft.warn(document.warning(rule, here, "the rule type \(type) (\(here)) is not imported"))
        continue
      }
      rules.append(
        Rule(
          kind: kind, key: key, version: rule["version"]?.number, description: rule["description"]?.string,
          schema: rule["jsonSchema"].map { SegmentSchema.normalized($0) },
          unwrapped: rule["jsonSchema"].map(Self.isUnwrapped) ?? false, document: document,
          location: rule.location, path: here,
          schemaPath: here.key("jsonSchema")))
    }
  }

  /// The catalogue: one entry per rule name (its highest version), common rules merged in.
  mutating func finish() -> ImportDraft {
    let provider = draft.catalogue.provider
    draft.catalogue.propertiesAt = SDKMessagePaths.segmentPlanProperties(provider: provider)
    var common: [String: [NamedConstraints]] = [:]
    var commonMessage: [NamedConstraints] = []
    var commonOrigins: [String] = []
    for rule in latestVersions() {
      if rule.kind == .common {
        for field in ["properties", "traits"] {
          let section = section(of: rule, field: field, others: field == "properties")
          common[field] = NamedConstraints.merged(common[field] ?? [], onto: section.params)
          if section.keywords != nil {
            let here = rule.schemaPath.keys("properties", field)
            draft.warn(
              ImportWarning(
                file: rule.document.file, location: rule.location, path: here,
                message:
                  "the keywords of the common rules' \(field) object (\(here)) are not checked by Tagscope"))
          }
        }
        commonMessage = NamedConstraints.merged(commonMessage, onto: messageContext(of: rule))
        commonOrigins.append("\(rule.document.file):\(rule.location)")
        continue
      }
      let field = Self.field(of: rule.kind)
      let section = section(of: rule, field: field, others: true)
      var entry = CatalogueEntry(
        key: rule.key ?? rule.kind.rawValue,
        method: rule.kind == .track ? SDKMessagePaths.trackMethod(provider: provider) : rule.kind.rawValue,
        description: rule.description ?? rule.schema?["description"]?.string,
        additionalProperties: section.open, params: section.params, origin: origin(rule))
      entry.keywords = section.keywords
      entry.propertiesAt = field == "properties" ? nil : field
      entry.messageParams = messageContext(of: rule)
      entry.notes = versionNotes[rule.path] ?? []
      switch rule.kind {
      case .track: draft.addCall(entry)
      case .page, .screen: rule.key == nil ? draft.addMethod(entry) : draft.addCall(entry)
      default: draft.addMethod(entry)
      }
    }
    for method in ["identify", "group", "page", "screen", "alias"]
    where !draft.catalogue.methods.contains(where: { $0.key == method }) {
      var entry = CatalogueEntry(key: method, origin: nil)
      entry.propertiesAt = method == "identify" || method == "group" ? "traits" : nil
      entry.notes = [
        vendor == "Segment"
          ? "Segment does not report unplanned \(method) calls: planned, with no constraint of its own"
          : "no \(method) rule (\(vendor) checked track events only before its rules of other calls): planned, with no constraint of its own"
      ]
      draft.addMethod(entry)
    }
    let note = "with the common rules of \(commonOrigins.joined(separator: ", ")) merged in"
    draft.catalogue.updateEntries { entry in
      let params = common[entry.propertiesAt ?? "properties"] ?? []
      guard !params.isEmpty || !commonMessage.isEmpty else { return }
      entry.params = NamedConstraints.conjoined(entry.params, params)
      entry.messageParams = NamedConstraints.conjoined(entry.messageParams, commonMessage)
      entry.notes.append(note)
    }
    return draft
  }

  /// The field of a Segment message whose object a kind's rule constrains.
  private static func field(of kind: Kind) -> String {
    kind == .identify || kind == .group ? "traits" : "properties"
  }

  /// Whether `deprecatedAt` deprecates: a date other than Go's zero time (`0001-01-01…`), which
  /// the Public API writes for rules that are not deprecated.
  private static func isDeprecation(_ value: SourceNode) -> Bool {
    guard let date = value.string else { return !value.isNull }
    return !date.isEmpty && !date.hasPrefix("0001-01-01")
  }

  private var versionNotes: [JSONPath: [String]] = [:]

  /// The rules with, for each kind and name, only the highest version (warning about the others).
  private mutating func latestVersions() -> [Rule] {
    var kept: [Rule] = []
    var seen: [String: [Rule]] = [:]
    for rule in rules { seen["\(rule.kind.rawValue) \(rule.key ?? "")", default: []].append(rule) }
    var done: Set<String> = []
    for rule in rules {
      let id = "\(rule.kind.rawValue) \(rule.key ?? "")"
      guard done.insert(id).inserted, let all = seen[id] else { continue }
      let best = all.enumerated().max {
        ($0.element.version ?? 0, -$0.offset) < ($1.element.version ?? 0, -$1.offset)
      }
      guard let best = best?.element else { continue }
      if all.count > 1 {
        let versions = all.map { $0.version.map(NumberText.yaml) ?? "none" }.joined(separator: ", ")
        let what = rule.key.map { "\(rule.kind.rawValue) \"\($0)\"" } ?? "the \(rule.kind.rawValue) rule"
        let kept = best.version.map(NumberText.yaml) ?? "none"
        draft.warn(
          best.document.warning(
            best.location, best.path,
            "\(what) has versions \(versions) (\(best.path)): version \(kept) is imported, Tagscope does not tell versions apart"
          ))
        versionNotes[best.path] = ["versions \(versions) in the source: version \(kept) kept"]
        for older in all where older.path != best.path {
          if let schema = older.schema {
            KeyLedger.leaveOut(every: schema, because: "rules of versions not imported (a higher one is)")
          }
        }
      }
      kept.append(best)
    }
    return kept
  }

  /// The constraints a rule sets on the properties of one object of the message.
  private struct Section {
    var params: [NamedConstraints] = []
    /// Whether the object may carry properties `params` does not list.
    var open = true
    /// The object's own keywords (``CatalogueEntry/keywords``).
    var keywords: SchemaKeywords<PropertyConstraints>?
  }

  /// The message fields that tell a whole-message schema.
  private static let messageFields: Set<String> = ["properties", "traits", "context"]

  /// Whether a rule's schema describes the object its entry checks (typewriter's unwrapped rules,
  /// marked by `eventMetadata`) rather than the whole message.
  private static func isUnwrapped(_ schema: SourceNode) -> Bool {
    // Looked at, not carried: `eventMetadata` describes the rule (``SegmentSchema``).
    if schema.objectMembers?.contains(where: { $0.key == "eventMetadata" }) == true { return true }
    guard let members = schema["properties"]?.objectMembers, !members.isEmpty else { return false }
    return !members.contains { messageFields.contains($0.key) }
  }

  /// The properties `rule` sets on the message's `field` (`properties`, `traits`); with
  /// `others`, a warning for each other field of the message it constrains (left out).
  private mutating func section(of rule: Rule, field: String, others: Bool) -> Section {
    guard let schema = rule.schema else { return Section() }
    if rule.unwrapped {
      guard field == Self.field(of: rule.kind) || rule.kind == .common && field == "properties" else {
        return Section()
      }
      return convert(rule, schema, at: rule.schemaPath)
    }
    if others {
      warnLeftOut(rule, schema, keeping: rule.kind == .common ? ["properties", "traits"] : [field])
    }
    guard let object = schema["properties"]?[field] else { return Section() }
    return convert(rule, object, at: rule.schemaPath.keys("properties", field))
  }

  /// The `context` a whole-message schema constrains, as the entry's `messageParams` (required when
  /// the message schema requires it); none for an unwrapped rule or an unconstrained context.
  private mutating func messageContext(of rule: Rule) -> [NamedConstraints] {
    guard !rule.unwrapped, let schema = rule.schema, let node = schema["properties"]?["context"] else {
      return []
    }
    var converter = SchemaConverter(
      file: rule.document.file, document: schema, at: rule.schemaPath, budget: budget)
    var context = converter.constraints(node, path: rule.schemaPath.keys("properties", "context"))
    for warning in converter.warnings { draft.warn(warning) }
    context.required = schema["required"]?.elements?.contains { $0.string == "context" } ?? false
    context.description = nil
    guard !context.isUnconstrained, context != Self.anyObject else { return [] }
    return [NamedConstraints(name: "context", constraints: context)]
  }

  /// `{type: object}` and nothing else: a context that constrains nothing.
  private static var anyObject: PropertyConstraints {
    var object = PropertyConstraints()
    object.types = [.object]
    return object
  }

  /// The section of the object `node` describes.
  private mutating func convert(_ rule: Rule, _ node: SourceNode, at path: JSONPath) -> Section {
    guard let schema = rule.schema else { return Section() }
    var converter = SchemaConverter(
      file: rule.document.file, document: schema, at: rule.schemaPath, budget: budget)
    var entry = CatalogueEntry(key: "", origin: nil)
    let object = converter.constraints(node, path: path)
    entry.carry(object)
    for warning in converter.warnings { draft.warn(warning) }
    for warning in CatalogueEntry.leftOutWarnings(object, node: node, file: rule.document.file, path: path) {
      draft.warn(warning)
    }
    let open = entry.additionalProperties
    let params = entry.params
    return Section(
      params: open ? params.filter { !$0.constraints.isUnconstrained } : params, open: open,
      keywords: entry.keywords)
  }

  /// Warns about each field of a whole-message schema other than `kept` that constrains
  /// something (more than `type: object`): Tagscope checks the call's `kept` objects.
  private mutating func warnLeftOut(_ rule: Rule, _ schema: SourceNode, keeping objects: [String]) {
    let checked =
      "Tagscope checks the call's \(objects.joined(separator: ", ")) and context against this rule"
    let kept = objects + ["context"]
    let properties = schema["properties"]?.members ?? []
    for member in properties where !kept.contains(member.key) {
      let trivial =
        member.value.objectMembers?.allSatisfy { part in
          SchemaConverter.annotations.contains(part.key) || part.key == "description"
            || (part.key == "type" && Self.isObjectType(part.value))
        } ?? false
      let required = schema["required"]?.elements?.contains { $0.string == member.key } ?? false
      guard !trivial || required else {
        KeyLedger.leaveOut(member, because: "fields of whole messages that constrain nothing")
        continue
      }
      let here = rule.schemaPath.keys("properties", member.key)
      draft.warn(rule.document.warning(member, here, "\(member.key) (\(here)) is not imported: \(checked)"))
    }
    for member in schema.members ?? [] {
      let here = rule.schemaPath.key(member.key)
      switch member.key {
      case "properties", "definitions", "$defs":
        KeyLedger.current?.carry(member)
        continue
      case "type" where Self.isObjectType(member.value):
        KeyLedger.current?.carry(member)
        continue
      case "description":
        KeyLedger.leaveOut(member, because: "descriptions of whole messages (the rule's own is carried)")
        continue
      case "required":
        let names = (member.value.elements ?? []).compactMap(\.string).filter { name in
          !kept.contains(name) && !properties.contains { $0.key == name }
        }
        guard !names.isEmpty else { continue }
        draft.warn(
          rule.document.warning(
            member, here, "required \(names.joined(separator: ", ")) (\(here)) is not imported: \(checked)"))
      default:
        if SchemaConverter.annotations.contains(member.key) {
          KeyLedger.leaveOut(member, because: KeyLedger.annotations)
          continue
        }
        draft.warn(
          rule.document.warning(
            member, here, "\(member.key) on the whole message (\(here)) is not imported: \(checked)"))
      }
    }
  }

  /// The keys of a rule or event that describe it (ids, dates), left out.
  private static let metadataKeys: Set<String> = [
    "id", "create_time", "update_time", "createdAt", "updatedAt", "created_at", "updated_at",
    "workspaceId", "creationType",
  ]

  /// Notes the metadata of a rule or event (``metadataKeys``) as left out.
  private static func leaveOutMetadata(_ members: [SourceNode.Member]) {
    for member in members where metadataKeys.contains(member.key) {
      KeyLedger.leaveOut(member, because: KeyLedger.ruleMetadata)
    }
  }

  /// Whether a `type` value is `object` (alone or as a one-element list).
  private static func isObjectType(_ type: SourceNode) -> Bool {
    type.stringShape == "object" || type.arrayElements?.map(\.stringShape) == ["object"]
  }

  private func origin(_ rule: Rule) -> EntryOrigin {
    var summary = rule.key.map { "\"\($0)\"" } ?? ""
    if let version = rule.version {
      summary += "\(summary.isEmpty ? "" : " ")version \(NumberText.yaml(version))"
    }
    return EntryOrigin(file: rule.document.file, location: rule.location, path: rule.path, summary: summary)
  }
}
