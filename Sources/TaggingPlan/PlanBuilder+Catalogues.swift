import AnalyticsHub

extension PlanLoader.Builder {
  /// `catalogues:`: per provider id, `unplanned`, `calls` (entries by call name) and `methods`
  /// (entries by SDK method).
  func catalogues(_ node: YAMLNode) throws -> [CallCatalogue] {
    if node.isNull { return [] }
    return try reader.mapping(node, "catalogues").map { pair in
      let what = "catalogue \(pair.key)"
      var unplanned = UnplannedCalls.error
      var propertiesAt: MessagePath?
      var entitiesAt: MessagePath?
      var valuesAsText = false
      var calls: [ReadEntry] = []
      var methods: [ReadEntry] = []
      if pair.value.isNull {
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
        case "propertiesAt": propertiesAt = try messagePath(field.value, "propertiesAt of \(what)")
        case "entitiesAt": entitiesAt = try messagePath(field.value, "entitiesAt of \(what)")
        case "valuesAsText": valuesAsText = try reader.bool(field.value, "valuesAsText of \(what)")
        case "calls":
          if field.value.isNull { continue }
          calls = try reader.mapping(field.value, "calls of \(what)").map {
            try catalogueEntry($0, "call \($0.key) of \(what)", byMethod: false)
          }
        case "methods":
          if field.value.isNull { continue }
          methods = try reader.mapping(field.value, "methods of \(what)").map {
            try catalogueEntry($0, "method \($0.key) of \(what)", byMethod: true)
          }
        default: _ = try reader.string(field.value, "description of \(what)")
        }
      }
      // An entry that does not say where its parameters sit follows its catalogue.
      for index in calls.indices where !calls[index].saysWhereParamsSit {
        calls[index].entry.propertiesAt = propertiesAt
      }
      for index in methods.indices where !methods[index].saysWhereParamsSit {
        methods[index].entry.propertiesAt = propertiesAt
      }
      var catalogue = CallCatalogue(
        provider: pair.key, location: reader.location(pair.keyNode), unplanned: unplanned,
        propertiesAt: propertiesAt, entitiesAt: entitiesAt, calls: calls.map(\.entry),
        methods: methods.map(\.entry))
      catalogue.valuesAsText = valuesAsText
      return catalogue
    }
  }

  /// An entry as read, and whether it gave its own `propertiesAt`.
  struct ReadEntry {
    var entry: CatalogueCall
    var saysWhereParamsSit = false
  }

  /// `propertiesAt`: a dotted path of keys (`properties`, `unstruct_event.data.data`), or `.`.
  private func messagePath(_ node: YAMLNode, _ what: String) throws -> MessagePath {
    let text = try reader.string(node, what)
    guard let path = MessagePath(text) else {
      throw reader.error(
        node,
        "\(what) \"\(text)\" has an empty key: write keys joined by single dots (properties), or . for the whole message"
      )
    }
    return path
  }

  /// One entry: keyed by its call name (`calls`) or its method (`methods`, where `method` is the
  /// key and cannot be given again).
  private func catalogueEntry(_ pair: YAMLReader.Pair, _ what: String, byMethod: Bool) throws -> ReadEntry {
    var read = ReadEntry(
      entry: CatalogueCall(
        name: byMethod ? nil : pair.key, method: byMethod ? pair.key : nil,
        location: reader.location(pair.keyNode)))
    if pair.value.isNull { return read }
    let allowed =
      byMethod ? PlanLoader.catalogueEntryKeys.filter { $0 != "method" } : PlanLoader.catalogueEntryKeys
    for field in try reader.mapping(pair.value, what, allowed: allowed) {
      switch field.key {
      case "method": read.entry.method = try reader.string(field.value, "method of \(what)")
      case "severity": read.entry.severity = try severity(field.value, "severity of \(what)")
      case "additionalProperties":
        read.entry.additionalParams = try reader.bool(field.value, "additionalProperties of \(what)")
      case "params":
        if field.value.kind == .sequence {
          read.entry.params = try reader.sequence(field.value, "params of \(what)").map { item in
            var rule = PropertyRule(
              name: try reader.string(item, "each param of \(what)"), location: reader.location(item))
            rule.required = true
            return rule
          }
        } else {
          read.entry.params = try properties(field.value, "params of \(what)")
        }
      case "propertiesAt":
        read.entry.propertiesAt = try messagePath(field.value, "propertiesAt of \(what)")
        read.saysWhereParamsSit = true
      case "messageParams":
        read.entry.messageParams = try properties(field.value, "messageParams of \(what)")
      default: read.entry.description = try reader.string(field.value, "description of \(what)")
      }
    }
    return read
  }
}
