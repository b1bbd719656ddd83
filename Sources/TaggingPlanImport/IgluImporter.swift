import TaggingPlan

/// Snowplow Iglu self-describing JSON Schemas (`vendor/name/jsonschema/1-0-0`, each with
/// `"self": {"vendor", "name", "format", "version"}`).
///
/// `listen` names a self-describing event's call after the schema it names
/// (`iglu:vendor/name/jsonschema/1-0-0`, from `unstruct_event.data.schema`), and its context
/// entities carry their schema too. So every version of every schema becomes a `calls` entry keyed
/// by its URI: no two vendors collide, and the version a call names is the one that checks it
/// (the catalogue checks a version it lacks against the newest it has). The catalogue says where
/// an event's data sits (`propertiesAt: unstruct_event.data.data`) and where the entities are
/// (`entitiesAt: contexts.data`), so each entry's `params` are the schema's properties, checked on
/// events and entities alike. The tracker's built-in events without an Iglu schema (page view,
/// page ping, structured event) become `methods` entries with the tracker protocol's required
/// fields.
struct IgluImporter {
  /// One schema file.
  private struct Schema {
    var vendor: String
    var name: String
    var version: [Int]
    var versionText: String
    var document: SourceDocument

    var uri: String { "iglu:\(vendor)/\(name)/jsonschema/\(versionText)" }
  }

  private var draft: ImportDraft
  /// What the import may expand to, shared by all its documents.
  var budget = ExpansionBudget(sourceBytes: 0)
  private var schemas: [Schema] = []

  init(provider: String, unplanned: UnplannedCalls) {
    draft = ImportDraft(provider: provider, unplanned: unplanned)
  }

  /// Why `root` is a self-describing schema (the keys that say so); `nil` when it is not.
  static func evidence(_ root: SourceNode) -> String? {
    guard let header = root["self"], header["vendor"]?.string != nil, header["name"]?.string != nil else {
      return nil
    }
    return "Iglu self-describing schema: self.vendor, self.name"
  }

  mutating func read(_ document: SourceDocument) throws(ImportError) {
    let root = document.root
    guard root.members != nil, let header = root.member("self"), header.value.members != nil else {
      throw document.error(root, "not a self-describing schema: it has no \"self\" object")
    }
    var fields: [String: String] = [:]
    for key in ["vendor", "name", "format", "version"] {
      guard let value = header.value[key]?.string, !value.isEmpty else {
        throw document.error(
          header.value,
          "self.\(key) is missing: a self-describing schema names its vendor, name, format and version")
      }
      fields[key] = value
    }
    let versionText = fields["version"] ?? ""
    guard let numbers = SchemaVer.parts(versionText) else {
      throw document.error(
        header.value["version"] ?? header.value,
        "self.version \"\(versionText)\" is not a SchemaVer (model-revision-addition)")
    }
    guard fields["format"] == "jsonschema" else {
      let here = JSONPath.root.keys("self", "format")
      draft.warn(
        document.warning(
          header, here, "format \(fields["format"] ?? "") (\(here)) is not imported: only jsonschema is"))
      return
    }
    schemas.append(
      Schema(
        vendor: fields["vendor"] ?? "", name: fields["name"] ?? "", version: numbers,
        versionText: versionText, document: document))
  }

  mutating func finish() -> ImportDraft {
    draft.catalogue.propertiesAt = "unstruct_event.data.data"
    draft.catalogue.entitiesAt = "contexts.data"
    var groups: [String: [Schema]] = [:]
    for schema in schemas { groups["\(schema.vendor)/\(schema.name)", default: []].append(schema) }
    for key in groups.keys.sorted() {
      let versions = (groups[key] ?? []).sorted { $0.version.lexicographicallyPrecedes($1.version) }
      let list = versions.map(\.versionText).joined(separator: ", ")
      for (index, schema) in versions.enumerated() {
        var entry = entry(schema)
        if versions.count > 1 {
          entry.notes = [
            "versions \(list)"
              + (index == versions.count - 1
                ? ": the newest, which checks a version the catalogue lacks" : "")
          ]
        }
        draft.addCall(entry)
      }
    }
    for builtIn in Self.builtIns { draft.addMethod(builtIn) }
    return draft
  }

  /// The tracker's own events Iglu Central has no schema for, as `methods` entries: their fields
  /// are the tracker protocol's (snowplow.io "Snowplow Tracker Protocol"), at the message's top
  /// level.
  private static var builtIns: [CatalogueEntry] {
    func text(_ name: String) -> NamedConstraints {
      var constraints = PropertyConstraints()
      constraints.types = [.string]
      constraints.required = true
      return NamedConstraints(name: name, constraints: constraints)
    }
    let events: [(method: String, what: String, fields: [String])] = [
      ("trackPageView", "page view (e=pv)", ["url"]),
      ("trackPagePing", "page ping (e=pp)", ["url"]),
      ("trackStructEvent", "structured event (e=se)", ["se_ca", "se_ac"]),
    ]
    return events.map { event in
      var entry = CatalogueEntry(
        key: event.method, description: "The tracker's \(event.what): Iglu has no schema for it",
        params: event.fields.map(text), origin: nil)
      entry.propertiesAt = "."
      return entry
    }
  }

  private mutating func entry(_ schema: Schema) -> CatalogueEntry {
    var converter = SchemaConverter(
      file: schema.document.file, document: schema.document.root, budget: budget)
    let data = converter.constraints(schema.document.root, path: .root, depth: 2, ignoring: ["self"])
    for warning in converter.warnings { draft.warn(warning) }
    let origin = EntryOrigin(
      file: schema.document.file, location: schema.document.root.location, path: .root, summary: schema.uri)
    var entry = CatalogueEntry(
      key: schema.uri, method: "trackSelfDescribingEvent",
      description: schema.document.root["description"]?.string, origin: origin)
    entry.carry(data)
    for warning in CatalogueEntry.leftOutWarnings(
      data, node: schema.document.root, file: schema.document.file, path: .root)
    {
      draft.warn(warning)
    }
    return entry
  }
}
