import AnalyticsHub
import Yams

extension PlanLoader.Builder {
  /// `catalogues:`: per provider id, `unplanned`, `calls` (entries by call name) and `methods`
  /// (entries by SDK method).
  func catalogues(_ node: Node) throws -> [CallCatalogue] {
    if case .scalar = node, node.tagName == .null { return [] }
    return try reader.mapping(node, "catalogues").map { pair in
      let what = "catalogue \(pair.key)"
      var unplanned = UnplannedCalls.error
      var calls: [CatalogueCall] = []
      var methods: [CatalogueCall] = []
      if case .scalar = pair.value, pair.value.tagName == .null {
        return CallCatalogue(provider: pair.key, location: reader.location(pair.keyNode))
      }
      for field in try reader.mapping(pair.value, what, allowed: PlanLoader.catalogueKeys) {
        switch field.key {
        case "unplanned":
          let word = try reader.string(field.value, "unplanned of \(what)")
          guard let value = UnplannedCalls(rawValue: word) else {
            throw reader.error(
              field.value, "unplanned of \(what) must be error, warning or allowed, found \"\(word)\"")
          }
          unplanned = value
        case "calls":
          if case .scalar = field.value, field.value.tagName == .null { continue }
          calls = try reader.mapping(field.value, "calls of \(what)").map {
            try catalogueEntry($0, "call \($0.key) of \(what)", byMethod: false)
          }
        case "methods":
          if case .scalar = field.value, field.value.tagName == .null { continue }
          methods = try reader.mapping(field.value, "methods of \(what)").map {
            try catalogueEntry($0, "method \($0.key) of \(what)", byMethod: true)
          }
        default: _ = try reader.string(field.value, "description of \(what)")
        }
      }
      return CallCatalogue(
        provider: pair.key, location: reader.location(pair.keyNode), unplanned: unplanned, calls: calls,
        methods: methods)
    }
  }

  /// One entry: keyed by its call name (`calls`) or its method (`methods`, where `method` is the
  /// key and cannot be given again).
  private func catalogueEntry(_ pair: YAMLReader.Pair, _ what: String, byMethod: Bool) throws -> CatalogueCall
  {
    var entry = CatalogueCall(
      name: byMethod ? nil : pair.key, method: byMethod ? pair.key : nil,
      location: reader.location(pair.keyNode))
    if case .scalar = pair.value, pair.value.tagName == .null { return entry }
    let allowed =
      byMethod ? PlanLoader.catalogueEntryKeys.filter { $0 != "method" } : PlanLoader.catalogueEntryKeys
    for field in try reader.mapping(pair.value, what, allowed: allowed) {
      switch field.key {
      case "method": entry.method = try reader.string(field.value, "method of \(what)")
      case "severity": entry.severity = try severity(field.value, "severity of \(what)")
      case "additionalProperties":
        entry.additionalParams = try reader.bool(field.value, "additionalProperties of \(what)")
      case "params":
        if case .sequence = field.value {
          entry.params = try reader.sequence(field.value, "params of \(what)").map { item in
            var rule = PropertyRule(
              name: try reader.string(item, "each param of \(what)"), location: reader.location(item))
            rule.required = true
            return rule
          }
        } else {
          entry.params = try properties(field.value, "params of \(what)")
        }
      default: _ = try reader.string(field.value, "description of \(what)")
      }
    }
    return entry
  }
}
