import TaggingPlan

/// The data catalog of a `rudder-cli` project: its events, properties and custom types by group
/// (`metadata.name`) and id, from `kind: events`, `properties` and `custom-types` files of spec
/// `rudder/0.1`, `rudder/v0.1` or `rudder/v1`.
struct RudderStackCatalog {
  /// A definition and where it is.
  struct Definition {
    var group: String
    var id: String
    var node: SourceNode
    var document: SourceDocument
    var path: JSONPath
  }

  /// The kinds of reference: `#/events/<group>/<id>` (v0.1) or `#event:<id>` (v1)…
  enum Kind: String {
    case events, properties
    case customTypes = "custom-types"

    /// The v1 URN prefix (`#event:`).
    var urn: String {
      switch self {
      case .events: return "#event:"
      case .properties: return "#property:"
      case .customTypes: return "#custom-type:"
      }
    }

    /// The array of a file's `spec` holding the definitions.
    var specKey: String {
      switch self {
      case .events: return "events"
      case .properties: return "properties"
      case .customTypes: return "types"
      }
    }
  }

  private var definitions: [Kind: [Definition]] = [:]

  /// Adds the definitions of a `kind: events`, `properties` or `custom-types` file.
  mutating func add(_ kind: Kind, spec: SourceNode, group: String, document: SourceDocument)
    throws(ImportError)
  {
    let path = JSONPath.root.keys("spec", kind.specKey)
    guard let list = spec[kind.specKey]?.elements else {
      throw document.error(spec, "spec.\(kind.specKey) of a kind: \(kind.rawValue) file must be a list")
    }
    for (index, node) in list.enumerated() {
      guard node.members != nil else { throw document.error(node, "\(path.index(index)) must be an object") }
      guard let id = node["id"]?.string, !id.isEmpty else {
        throw document.error(node, "\(path.index(index)) has no id")
      }
      definitions[kind, default: []].append(
        Definition(group: group, id: id, node: node, document: document, path: path.index(index)))
    }
  }

  /// The definition `reference` names: `#/<kind>/<group>/<id>`, `#<urn>:<id>`, or a bare id.
  func resolve(_ reference: String, _ kind: Kind) -> Definition? {
    let candidates = definitions[kind] ?? []
    if reference.hasPrefix(kind.urn) {
      let id = String(reference.dropFirst(kind.urn.count))
      return candidates.first { $0.id == id }
    }
    let prefix = "#/\(kind.rawValue)/"
    guard reference.hasPrefix(prefix) else { return nil }
    let parts = reference.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    let group = String(parts[0])
    let id = String(parts[1])
    return candidates.first { $0.group == group && $0.id == id } ?? candidates.first { $0.id == id }
  }

  /// Whether `reference` is written as a reference of `kind` (resolvable or not).
  static func isReference(_ reference: String, _ kind: Kind) -> Bool {
    reference.hasPrefix(kind.urn) || reference.hasPrefix("#/\(kind.rawValue)/")
  }
}
