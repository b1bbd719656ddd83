extension PlanLoader {
  /// The keys of the plan's `privacy` mapping.
  static let privacyKeys = ["scan", "allow"]
}

extension PlanLoader.Builder {
  /// The plan's `privacy`: `off` (or `false`), `on` (or `true`), or a mapping with `scan`
  /// (`on`/`off`) and `allow` (a kind or a list of kinds, ``PIIKind``) allowed in every value.
  func privacy(_ node: YAMLNode) throws -> PlanPrivacy {
    if node.kind != .mapping {
      return PlanPrivacy(scans: try privacySwitch(node, "privacy"))
    }
    var privacy = PlanPrivacy()
    for field in try reader.mapping(node, "privacy", allowed: PlanLoader.privacyKeys) {
      switch field.key {
      case "scan": privacy.scans = try privacySwitch(field.value, "scan of privacy")
      default: privacy.allowed = try allowedKinds(field.value)
      }
    }
    return privacy
  }

  private func privacySwitch(_ node: YAMLNode, _ what: String) throws -> Bool {
    if node.kind == .scalar, node.tag == .bool, let value = node.bool { return value }
    switch node.kind == .scalar && !node.isNull ? node.string : "" {
    case "on": return true
    case "off": return false
    default:
      throw reader.error(
        node, "\(what) must be on, off or a mapping with scan and allow, found \(reader.describe(node))")
    }
  }

  /// The kinds of `allow`, each bad word reported at its own node.
  private func allowedKinds(_ node: YAMLNode) throws -> PIIKinds {
    let items = node.kind == .sequence ? Array(try reader.sequence(node, "allow of privacy")) : [node]
    var kinds: PIIKinds = []
    for item in items {
      let word = try reader.string(item, "each of allow of privacy")
      guard let kind = PIIKind(rawValue: word) else {
        throw reader.error(item, "allow of privacy must be some of \(PIIKind.words), found \"\(word)\"")
      }
      kinds.insert(PIIKinds(kind))
    }
    return kinds
  }
}
