extension PlanLoader.Builder {
  /// A property's `pii`: `allowed` (every kind), `none`, or a kind or list of kinds
  /// (``PIIKind``: email, phone, adid, ip, card, geo, token) the property may carry.
  func allowedPII(_ node: YAMLNode, _ what: String) throws -> PIIKinds {
    var kinds: PIIKinds = []
    for word in try reader.strings(node, "pii of \(what)") {
      switch word {
      case "allowed": kinds = .all
      case "none": continue
      default:
        guard let kind = PIIKind(rawValue: word) else {
          throw reader.error(
            node, "pii of \(what) must be allowed, none or some of \(PIIKind.words), found \"\(word)\"")
        }
        kinds.insert(PIIKinds(kind))
      }
    }
    return kinds
  }
}
