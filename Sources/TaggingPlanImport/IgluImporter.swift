import TaggingPlan

/// Snowplow Iglu self-describing JSON Schemas (`vendor/name/jsonschema/1-0-0`, each with
/// `"self": {"vendor", "name", "format", "version"}`).
///
/// `listen` records a self-describing event as `trackSelfDescribingEvent` named after its schema,
/// whose `unstruct_event.data` holds `schema` (`iglu:vendor/name/jsonschema/version`) and `data`
/// (the event's fields). Each schema name becomes a `calls` entry constraining `schema` to the
/// imported versions' URIs and `data` to the highest version's schema. A name two vendors use is
/// imported from the first (in path order), with a warning. Schemas of contexts and entities look
/// the same and are imported too.
struct IgluImporter {
  /// One schema file.
  private struct Schema {
    var vendor: String
    var name: String
    var version: [Int]
    var versionText: String
    var document: SourceDocument
    var selfLocation: SourceLocation

    var uri: String { "iglu:\(vendor)/\(name)/jsonschema/\(versionText)" }
  }

  private var draft: ImportDraft
  private var schemas: [Schema] = []

  init(provider: String, unplanned: UnplannedCalls) {
    draft = ImportDraft(provider: provider, unplanned: unplanned)
  }

  /// Whether `root` looks like a self-describing schema.
  static func recognizes(_ root: SourceNode) -> Bool {
    guard let header = root["self"] else { return false }
    return header["vendor"]?.string != nil && header["name"]?.string != nil
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
    let parts = versionText.split(separator: "-", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Int($0) }
    guard parts.count == 3, numbers.count == 3 else {
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
        versionText: versionText, document: document, selfLocation: header.keyLocation))
  }

  mutating func finish() -> ImportDraft {
    var names: [String] = []
    for schema in schemas where !names.contains(schema.name) { names.append(schema.name) }
    for name in names {
      let all = schemas.filter { $0.name == name }
      guard let vendor = all.first?.vendor else { continue }
      for other in all where other.vendor != vendor {
        draft.warn(
          other.document.warning(
            other.selfLocation, JSONPath.root.key("self"),
            "the event name \(name) of \(other.uri) (self) is already imported from vendor \(vendor): left out"
          ))
      }
      let versions = all.filter { $0.vendor == vendor }.sorted {
        $0.version.lexicographicallyPrecedes($1.version)
      }
      guard let latest = versions.last else { continue }
      var entry = entry(latest, uris: versions.map(\.uri))
      if versions.count > 1 {
        let list = versions.map(\.versionText).joined(separator: ", ")
        draft.warn(
          latest.document.warning(
            latest.selfLocation, JSONPath.root.key("self"),
            "\(versions.count) versions of iglu:\(vendor)/\(name) (\(list)): the data is checked against \(latest.versionText), every version's URI is accepted"
          ))
        entry.notes = ["versions \(list): data checked against \(latest.versionText)"]
      }
      draft.addCall(entry)
    }
    return draft
  }

  private mutating func entry(_ schema: Schema, uris: [String]) -> CatalogueEntry {
    var converter = SchemaConverter(file: schema.document.file, document: schema.document.root)
    var data = converter.constraints(schema.document.root, path: .root, depth: 2, ignoring: ["self"])
    for warning in converter.warnings { draft.warn(warning) }
    data.required = true
    data.description = nil
    var uri = PropertyConstraints()
    uri.types = [.string]
    uri.required = true
    uri.allowed = uris.map(ScalarValue.string)
    var inner = PropertyConstraints()
    inner.types = [.object]
    inner.required = true
    inner.properties = [
      NamedConstraints(name: "schema", constraints: uri), NamedConstraints(name: "data", constraints: data),
    ]
    var outer = PropertyConstraints()
    outer.types = [.object]
    outer.required = true
    outer.properties = [NamedConstraints(name: "data", constraints: inner)]
    let origin = EntryOrigin(
      file: schema.document.file, location: schema.document.root.location, path: .root, summary: schema.uri)
    return CatalogueEntry(
      key: schema.name, method: "trackSelfDescribingEvent",
      description: schema.document.root["description"]?.string,
      params: [NamedConstraints(name: "unstruct_event", constraints: outer)], origin: origin)
  }
}
