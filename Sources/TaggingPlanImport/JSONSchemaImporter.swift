import TaggingPlan
import TagscopeVendors

/// Plain JSON Schema per event (draft-04 to 2020-12), as Avo and Amplitude Data export them: a
/// file holding one event's schema (named by `title`, else the file's name), or a collection —
/// `{"events": […]}` (Avo's export and webhook: `{"name", "description", "rules": schema}` whose
/// `rules.properties.properties` are the event's properties), a JSON array of schemas, a
/// `$defs`/`definitions` object of schemas by event name, or an object of event schemas by event
/// name (`{"Song Played": {…}, …}`, as Amplitude Data's per-event schemas are gathered into one
/// file: each `{"$id": "https://data.amplitude.com/…/event/NAME/version/V", "title", "properties",
/// "required", "additionalProperties": false}`).
///
/// Each event becomes a `calls` entry (no `method`) whose parameters are the schema's
/// `properties` and whose `additionalProperties` is the schema's (true when absent). The provider
/// the calls reach is not in the source: it is `--provider`; it sets the catalogue's
/// `propertiesAt` (where the vendor registry says its SDK messages keep properties), so the
/// entries check the messages their SDKs send as well as in-app calls; a schema of user or group
/// properties gets its method's place from the registry too (``Vendor/MessageFields/methodProperties``).
struct JSONSchemaImporter {
  private var draft: ImportDraft
  /// What the import may expand to, shared by all its documents.
  var budget = ExpansionBudget(sourceBytes: 0)
  /// Resolves the `$ref`s of the document being read, for all its event schemas.
  private var pointers: SchemaPointers?

  init(provider: String, unplanned: UnplannedCalls) {
    draft = ImportDraft(provider: provider, unplanned: unplanned)
    draft.catalogue.propertiesAt = SDKMessagePaths.eventProperties(provider: provider)
  }

  /// Why `root` is JSON Schema or a collection of event schemas; `nil` when it is not.
  static func evidence(_ root: SourceNode) -> String? {
    if let list = root.elements {
      if list.first?["properties"] != nil { return "a list of event schemas: [].properties" }
      return list.first?["title"] != nil ? "a list of event schemas: [].title" : nil
    }
    if root["$schema"]?.string?.contains("json-schema.org") == true { return "one event schema: $schema" }
    if let events = root["events"]?.elements {
      if events.first?["rules"] != nil { return "Avo export: events[].rules" }
      return events.first?["properties"] != nil ? "event schemas: events[].properties" : nil
    }
    if root["properties"] != nil && root["type"]?.string == "object" {
      return "one event schema: type object, properties"
    }
    return eventSchemasByName(root) != nil ? "event schemas by name: {name: {properties}}" : nil
  }

  /// The members of `root` when it is an object of event schemas by name: every value an object
  /// naming a JSON Schema draft (`$schema`) or of `type: object` with `properties`.
  private static func eventSchemasByName(_ root: SourceNode) -> [SourceNode.Member]? {
    guard root["properties"] == nil, root["type"] == nil, let members = root.members, !members.isEmpty
    else { return nil }
    let allSchemas = members.allSatisfy { member in
      member.value["$schema"]?.string?.contains("json-schema.org") == true
        || (member.value["type"]?.string == "object" && member.value["properties"] != nil)
    }
    return allSchemas ? members : nil
  }

  mutating func read(_ document: SourceDocument) throws(ImportError) {
    let root = document.root
    pointers = SchemaPointers(document: root)
    if let list = root.elements {
      draft.catalogue.reserveCalls(list.count)
      for (index, schema) in list.enumerated() {
        try event(schema, document, path: JSONPath.root.index(index), name: nil)
      }
    } else if let events = root["events"]?.elements {
      draft.offerName(root["name"]?.string)
      for member in root.members ?? [] where !["events", "name"].contains(member.key) {
        KeyLedger.leaveOut(member, because: "export metadata")
      }
      draft.catalogue.reserveCalls(events.count)
      for (index, item) in events.enumerated() {
        let path = JSONPath.root.key("events").index(index)
        if item["rules"] != nil {
          try avoEvent(item, document, path: path)
        } else {
          try event(item, document, path: path, name: nil)
        }
      }
    } else if root["properties"] == nil, root["type"] == nil,
      let definitions = root.member("$defs") ?? root.member("definitions"),
      let members = definitions.value.members
    {
      draft.offerName(root["title"]?.string)
      draft.catalogue.reserveCalls(members.count)
      KeyLedger.current?.carry(members)
      for member in members {
        try event(
          member.value, document, path: JSONPath.root.keys(definitions.key, member.key), name: member.key)
      }
    } else if let members = Self.eventSchemasByName(root) {
      draft.catalogue.reserveCalls(members.count)
      KeyLedger.current?.carry(members)
      for member in members {
        try event(
          member.value, document, path: JSONPath.root.key(member.key),
          name: member.value["title"]?.string ?? member.key)
      }
    } else if root.members != nil {
      try event(root, document, path: .root, name: root["title"]?.string ?? document.baseName)
    } else {
      throw document.error(
        root, "not a JSON Schema: expected an object (one event) or a list of event schemas")
    }
  }

  func finish() -> ImportDraft { draft }

  /// One event schema: its `properties` are the call's parameters.
  private mutating func event(
    _ schema: SourceNode, _ document: SourceDocument, path: JSONPath, name: String?
  ) throws(ImportError) {
    guard schema.members != nil else {
      throw document.error(schema, "the event schema \(path) must be an object")
    }
    guard let name = name ?? schema["title"]?.string ?? schema["name"]?.string, !name.isEmpty else {
      throw document.error(schema, "the event schema \(path) has no name (title)")
    }
    var converter = SchemaConverter(
      file: document.file, document: document.root, pointers: pointers, budget: budget)
    let object = converter.constraints(schema, path: path, ignoring: ["name"])
    for warning in converter.warnings { draft.warn(warning) }
    var entry = CatalogueEntry(
      key: name, description: object.description,
      origin: EntryOrigin(file: document.file, location: schema.location, path: path, summary: "\"\(name)\""))
    entry.carry(object)
    for warning in CatalogueEntry.leftOutWarnings(object, node: schema, file: document.file, path: path) {
      draft.warn(warning)
    }
    if let method = Self.amplitudeUserMethod(schema["$id"]?.string) {
      entry.key = method
      entry.propertiesAt = Vendors.vendor(named: draft.catalogue.provider)?.messages?.methodProperties[method]
      entry.notes.append("Amplitude Data's \(name) schema: the properties of \(method) calls")
      draft.addMethod(entry)
    } else {
      draft.addCall(entry)
    }
  }

  /// The SDK method an Amplitude Data schema of user or group properties stands for (`$id`
  /// `https://data.amplitude.com/WORKSPACE/identify` or `…/group`; Iteratively, Amplitude Data's
  /// predecessor, wrote `https://iterative.ly/company/COMPANY/identify`); `nil` for an event's.
  static func amplitudeUserMethod(_ id: String?) -> String? {
    guard let id, id.hasPrefix("https://data.amplitude.com/") || id.hasPrefix("https://iterative.ly/company/")
    else { return nil }
    if id.hasSuffix("/identify") { return "identify" }
    if id.hasSuffix("/group") { return "groupIdentify" }
    return nil
  }

  /// An event of Avo's export: `name`, `description`, and `rules`, the schema of a message whose
  /// `properties` member holds the event's properties; `nameMapping` to `all` destinations
  /// renames the event.
  private mutating func avoEvent(_ item: SourceNode, _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    guard let name = item["name"]?.string, !name.isEmpty else {
      throw document.error(item, "the event \(path) has no name")
    }
    guard let rules = item["rules"], rules.members != nil else {
      throw document.error(item, "the rules of the event \(path) must be an object")
    }
    let rulesPath = path.key("rules")
    for member in item.members ?? [] where ["id", "tags", "categories"].contains(member.key) {
      KeyLedger.leaveOut(member, because: "Avo's event ids, tags and categories")
    }
    var key = name
    var notes: [String] = []
    for member in rules.members ?? [] {
      let here = rulesPath.key(member.key)
      switch member.key {
      case "properties":
        for property in member.value.members ?? [] where property.key != "properties" {
          let place = here.key(property.key)
          draft.warn(
            document.warning(property, place, "\(property.key) (\(place)) is not imported: properties is"))
        }
      case "nameMapping":
        KeyLedger.current?.carry(member)
        for (index, mapping) in (member.value.elements ?? []).enumerated() {
          let place = here.index(index)
          if mapping["destinationId"]?.string == "all", let mapped = mapping["name"]?.string, !mapped.isEmpty
          {
            key = mapped
            notes.append("named \"\(name)\" in Avo, sent as \"\(mapped)\" to every destination")
          } else {
            draft.warn(
              document.warning(
                mapping, place, "a name mapping for one destination (\(place)) is not imported"))
          }
        }
      case "type", "required": KeyLedger.current?.carry(member)
      default:
        if SchemaConverter.annotations.contains(member.key) {
          KeyLedger.leaveOut(member, because: KeyLedger.annotations)
          continue
        }
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not checked by Tagscope"))
      }
    }
    var object = PropertyConstraints()
    if let properties = rules["properties"]?["properties"] {
      var converter = SchemaConverter(file: document.file, document: rules, at: rulesPath, budget: budget)
      let here = rulesPath.keys("properties", "properties")
      object = converter.constraints(properties, path: here, ignoring: ["nameMapping"])
      for warning in converter.warnings { draft.warn(warning) }
      for warning in CatalogueEntry.leftOutWarnings(
        object, node: properties, file: document.file, path: here)
      {
        draft.warn(warning)
      }
    }
    var entry = CatalogueEntry(
      key: key, description: item["description"]?.string.flatMap { $0.isEmpty ? nil : $0 },
      origin: EntryOrigin(file: document.file, location: item.location, path: path, summary: "\"\(name)\""))
    entry.carry(object)
    entry.notes = notes
    draft.addCall(entry)
  }
}
