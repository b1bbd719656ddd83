import TaggingPlan

/// Segment Protocols tracking plans: the Config API's (`{"display_name", "rules": {"events": [{"name",
/// "version", "rules": schema}], "identify", "group", "global"}}`) and the Public API's rules
/// (`{"data": {"rules": [{"type": "TRACK", "key", "version", "jsonSchema"}]}}`, or the bare list).
///
/// A rule's JSON Schema describes the whole message, whose top-level fields are the parameters of
/// the call `listen` records (`properties`, `traits`, `context`…): track rules become `calls`
/// entries with `method: track`, page and screen rules with a name `calls` entries with `method:
/// page`/`screen`, identify and group rules `methods` entries. Common (`global`, `COMMON`) rules
/// are merged into every entry, the entry's own constraints winning. Where a name has several
/// versions, the highest is kept. Segment never reports identify, group, page, screen or alias
/// calls as unplanned, so those methods are planned (unconstrained but for the common rules) when
/// the source has no rule for them.
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
    var document: SourceDocument
    var location: SourceLocation
    var path: JSONPath
    var schemaPath: JSONPath
  }

  private var draft: ImportDraft
  private var rules: [Rule] = []

  init(provider: String, unplanned: UnplannedCalls) {
    draft = ImportDraft(provider: provider, unplanned: unplanned)
  }

  /// Whether `root` looks like a Segment export.
  static func recognizes(_ root: SourceNode) -> Bool {
    if let list = root.elements { return list.first?["jsonSchema"] != nil }
    if root["tracking_plans"]?.elements != nil { return true }
    if let rules = root["rules"] {
      if rules.members != nil {
        return rules["events"] != nil || rules["global"] != nil || rules["identify"] != nil
      }
      return rules.elements?.first?["jsonSchema"] != nil
    }
    return root["data"]?["rules"]?.elements != nil
  }

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
      try publicRules(list, document, path: JSONPath.root.key("rules"))
    } else if let list = root["data"]?["rules"]?.elements {
      try publicRules(list, document, path: JSONPath.root.keys("data", "rules"))
    } else {
      throw document.error(
        root,
        "not a Segment tracking plan: expected \"rules\" (Config API), \"data.rules\" (Public API) or a list of rules"
      )
    }
  }

  /// A Config API tracking plan.
  private mutating func configPlan(_ plan: SourceNode, _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    draft.offerName(plan["display_name"]?.string ?? plan["name"]?.string)
    guard let members = plan["rules"]?.members else {
      throw document.error(plan, "a Config API tracking plan needs \"rules\", an object")
    }
    let rulesPath = path.key("rules")
    for member in members {
      let here = rulesPath.key(member.key)
      switch member.key {
      case "events":
        guard let events = member.value.elements else {
          throw document.error(member.value, "rules.events must be a list of events")
        }
        for (index, event) in events.enumerated() {
          let eventPath = here.index(index)
          guard event.members != nil else { throw document.error(event, "an event must be an object") }
          guard let name = event["name"]?.string, !name.isEmpty else {
            throw document.error(event, "the event \(eventPath) has no name")
          }
          rules.append(
            Rule(
              kind: .track, key: name, version: event["version"]?.number,
              description: event["description"]?.string,
              schema: event["rules"], document: document, location: event.location, path: eventPath,
              schemaPath: eventPath.key("rules")))
        }
      case "identify", "group", "global":
        let kind: Kind = member.key == "global" ? .common : member.key == "identify" ? .identify : .group
        rules.append(
          Rule(
            kind: kind, key: nil, version: nil, description: nil, schema: member.value, document: document,
            location: member.keyLocation, path: here, schemaPath: here))
      case "identify_traits", "group_traits":
        if member.value.elements?.isEmpty == false {
          draft.warn(
            document.warning(member, here, "\(member.key) (\(here)) is not imported: use identify and group"))
        }
      default:
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not imported"))
      }
    }
  }

  /// Public API rules.
  private mutating func publicRules(_ list: [SourceNode], _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    for (index, rule) in list.enumerated() {
      let here = path.index(index)
      guard rule.members != nil else { throw document.error(rule, "a rule must be an object") }
      guard let type = rule["type"]?.string else {
        throw document.error(rule, "the rule \(here) has no type")
      }
      let key = rule["key"]?.string.flatMap { $0.isEmpty ? nil : $0 }
      if let deprecated = rule.member("deprecatedAt"), !deprecated.value.isNull {
        draft.warn(document.warning(deprecated, here, "the rule \(here) is deprecated: left out"))
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
          schema: rule["jsonSchema"], document: document, location: rule.location, path: here,
          schemaPath: here.key("jsonSchema")))
    }
  }

  /// The catalogue: one entry per rule name (its highest version), common rules merged in.
  mutating func finish() -> ImportDraft {
    var common: [NamedConstraints] = []
    var commonOrigins: [String] = []
    for rule in latestVersions() {
      let params = messageParams(rule)
      if rule.kind == .common {
        common = NamedConstraints.merged(common, onto: params)
        commonOrigins.append("\(rule.document.file):\(rule.location)")
        continue
      }
      var entry = CatalogueEntry(
        key: rule.key ?? rule.kind.rawValue, method: rule.kind.rawValue, description: rule.description,
        params: params, origin: origin(rule))
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
      entry.notes = [
        "Segment does not report unplanned \(method) calls: planned, with no constraint of its own"
      ]
      draft.addMethod(entry)
    }
    if !common.isEmpty {
      let note = "with the common rules of \(commonOrigins.joined(separator: ", ")) merged in"
      draft.catalogue.updateEntries { entry in
        entry.params = NamedConstraints.merged(entry.params, onto: common)
        entry.notes.append(note)
      }
    }
    return draft
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
      }
      kept.append(best)
    }
    return kept
  }

  /// The call parameters a message schema describes: its top-level properties, less those it
  /// leaves unconstrained.
  private mutating func messageParams(_ rule: Rule) -> [NamedConstraints] {
    guard let schema = rule.schema else { return [] }
    var converter = SchemaConverter(file: rule.document.file, document: schema, at: rule.schemaPath)
    let message = converter.constraints(schema, path: rule.schemaPath)
    for warning in converter.warnings { draft.warn(warning) }
    if message.additionalProperties == false, let member = schema.member("additionalProperties") {
      let here = rule.schemaPath.key("additionalProperties")
      draft.warn(
        rule.document.warning(
          member, here,
          "additionalProperties: false on the whole message (\(here)) is not checked by Tagscope: a call carries type, messageId, timestamp…"
        ))
    }
    return (message.properties ?? []).filter { !$0.constraints.isUnconstrained }
  }

  private func origin(_ rule: Rule) -> EntryOrigin {
    var summary = rule.key.map { "\"\($0)\"" } ?? ""
    if let version = rule.version {
      summary += "\(summary.isEmpty ? "" : " ")version \(NumberText.yaml(version))"
    }
    return EntryOrigin(file: rule.document.file, location: rule.location, path: rule.path, summary: summary)
  }
}
