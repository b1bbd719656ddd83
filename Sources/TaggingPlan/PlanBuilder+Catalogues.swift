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
      var calls: [CatalogueCall] = []
      var methods: [CatalogueCall] = []
      if pair.value.isNull {
        return CallCatalogue(provider: pair.key, location: reader.location(pair.keyNode))
      }
      let fields = try reader.mapping(pair.value, what, allowed: PlanLoader.catalogueKeys)
      // An entry that does not say where its parameters sit follows its catalogue, whichever of
      // the two is written first.
      if let field = fields.first(where: { $0.key == "propertiesAt" }) {
        propertiesAt = try messagePath(field.value, "propertiesAt of \(what)")
      }
      for field in fields {
        switch field.key {
        case "unplanned":
          let word = try reader.string(field.value, "unplanned of \(what)")
          guard let value = UnplannedCalls(rawValue: word) else {
            throw reader.error(
              field.value, "unplanned of \(what) must be error, warning or allowed, found \"\(word)\"")
          }
          unplanned = value
        case "propertiesAt": continue
        case "entitiesAt": entitiesAt = try messagePath(field.value, "entitiesAt of \(what)")
        case "valuesAsText": valuesAsText = try reader.bool(field.value, "valuesAsText of \(what)")
        case "calls":
          if field.value.isNull { continue }
          calls = try entries(field.value, "calls of \(what)") {
            try catalogueEntry($0, "call \($0.key) of \(what)", byMethod: false, propertiesAt: propertiesAt)
          }
        case "methods":
          if field.value.isNull { continue }
          methods = try entries(field.value, "methods of \(what)") {
            try catalogueEntry($0, "method \($0.key) of \(what)", byMethod: true, propertiesAt: propertiesAt)
          }
        default: _ = try reader.string(field.value, "description of \(what)")
        }
      }
      var catalogue = CallCatalogue(
        provider: pair.key, location: reader.location(pair.keyNode), unplanned: unplanned,
        propertiesAt: propertiesAt, entitiesAt: entitiesAt, calls: calls,
        methods: methods)
      catalogue.valuesAsText = valuesAsText
      return catalogue
    }
  }

  /// The entries of `calls:` or `methods:`, each read by `read`; none kept when the builder only
  /// checks (``keepsCatalogueEntries`` false), so a check holds one entry at a time.
  private func entries(
    _ node: YAMLNode, _ what: String, _ read: (YAMLReader.Pair) throws -> CatalogueCall
  ) throws -> [CatalogueCall] {
    let pairs = try reader.mapping(node, what)
    var entries: [CatalogueCall] = []
    if keepsCatalogueEntries { entries.reserveCapacity(pairs.count) }
    for pair in pairs {
      let entry = try read(pair)
      if keepsCatalogueEntries { entries.append(entry) }
    }
    return entries
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
  /// key and cannot be given again); `propertiesAt` is its catalogue's, unless it gives its own.
  private func catalogueEntry(
    _ pair: YAMLReader.Pair, _ what: String, byMethod: Bool, propertiesAt: MessagePath?
  ) throws -> CatalogueCall {
    var entry = CatalogueCall(
      name: byMethod ? nil : pair.key, method: byMethod ? pair.key : nil,
      location: reader.location(pair.keyNode))
    entry.propertiesAt = propertiesAt
    if pair.value.isNull { return entry }
    let allowed =
      byMethod ? PlanLoader.catalogueEntryKeys.filter { $0 != "method" } : PlanLoader.catalogueEntryKeys
    // The parameter object's own keywords (`anyOf`, `minProperties`…), read as a property's are.
    var keywords = SchemaKeywords<PropertyRule>()
    for field in try reader.mapping(pair.value, what, allowed: allowed) {
      if try keyword(field, what, depth: 0, into: &keywords) { continue }
      switch field.key {
      case "method": entry.method = try reader.string(field.value, "method of \(what)")
      case "severity": entry.severity = try severity(field.value, "severity of \(what)")
      case "additionalProperties":
        entry.additionalParams = try reader.bool(field.value, "additionalProperties of \(what)")
      case "params":
        if field.value.kind == .sequence {
          entry.params = try reader.sequence(field.value, "params of \(what)").map { item in
            var rule = PropertyRule(
              name: try reader.string(item, "each param of \(what)"), location: reader.location(item))
            rule.required = true
            return rule
          }
        } else {
          entry.params = try properties(field.value, "params of \(what)")
        }
      case "propertiesAt":
        entry.propertiesAt = try messagePath(field.value, "propertiesAt of \(what)")
      case "messageParams":
        entry.messageParams = try properties(field.value, "messageParams of \(what)")
      default: entry.description = try reader.string(field.value, "description of \(what)")
      }
    }
    entry.keywords = keywords
    return entry
  }
}
