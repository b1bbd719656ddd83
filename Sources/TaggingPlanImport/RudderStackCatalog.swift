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
  /// Per kind, the position of the first definition of each id, and of each (group, id): a
  /// reference is resolved in constant time, not by a scan of every definition.
  private var firstByID: [Kind: [String: Int]] = [:]
  private var firstByGroupAndID: [Kind: [GroupAndID: Int]] = [:]

  private struct GroupAndID: Hashable {
    var group: String
    var id: String
  }

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
      let position = definitions[kind]?.count ?? 0
      if firstByID[kind]?[id] == nil { firstByID[kind, default: [:]][id] = position }
      let both = GroupAndID(group: group, id: id)
      if firstByGroupAndID[kind]?[both] == nil { firstByGroupAndID[kind, default: [:]][both] = position }
      definitions[kind, default: []].append(
        Definition(group: group, id: id, node: node, document: document, path: path.index(index)))
    }
  }

  /// Notes the definitions no rule used (none of their keys but `id` carried) as left out.
  func leaveOutUnused() {
    guard let ledger = KeyLedger.current else { return }
    for definition in definitions.values.joined() {
      let members = definition.node.objectMembers ?? []
      guard !members.contains(where: { $0.key != "id" && ledger.isCarried($0) }) else { continue }
      KeyLedger.leaveOut(every: definition.node, because: "definitions no rule uses")
    }
  }

  /// The definition `reference` names: `#/<kind>/<group>/<id>`, `#<urn>:<id>`, or a bare id.
  func resolve(_ reference: String, _ kind: Kind) -> Definition? {
    let candidates = definitions[kind] ?? []
    if reference.hasPrefix(kind.urn) {
      let id = String(reference.dropFirst(kind.urn.count))
      return firstByID[kind]?[id].map { candidates[$0] }
    }
    let prefix = "#/\(kind.rawValue)/"
    guard reference.hasPrefix(prefix) else { return nil }
    let parts = reference.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    let group = String(parts[0])
    let id = String(parts[1])
    let position = firstByGroupAndID[kind]?[GroupAndID(group: group, id: id)] ?? firstByID[kind]?[id]
    return position.map { candidates[$0] }
  }

  /// Whether `reference` is written as a reference of `kind` (resolvable or not).
  static func isReference(_ reference: String, _ kind: Kind) -> Bool {
    reference.hasPrefix(kind.urn) || reference.hasPrefix("#/\(kind.rawValue)/")
  }
}
