import TaggingPlan

/// Writes an ``ImportedPlan`` as plan YAML: deterministic (source order), readable by YAML 1.1
/// loaders, every entry commented with where it comes from, the warnings listed at the top.
public enum CatalogueWriter {
  /// The plan's YAML.
  public static func yaml(_ plan: ImportedPlan) -> String {
    var out = header(plan, comments: true)
    for (section, entries) in sections(plan.catalogue) where !entries.isEmpty {
      out += "    \(section):\n"
      for entry in entries { write(entry, byMethod: section == "methods", to: &out) }
    }
    if plan.catalogue.calls.isEmpty && plan.catalogue.methods.isEmpty { out += "    calls: {}\n" }
    return out
  }

  /// The plan's YAML in parts a plan loader checks one at a time, each passed to `body`: the
  /// header with its comments and no entry, then runs of entries of about `partBytes`, each
  /// under the header. Every entry is in one part, and the catalogue's keys are unique, so the
  /// parts load when the whole does, and an import of many thousand entries is checked without
  /// holding the whole plan loaded.
  static func eachPart(of plan: ImportedPlan, partBytes: Int = 256 << 10, _ body: (String) throws -> Void)
    rethrows
  {
    try body(header(plan, comments: true) + "    calls: {}\n")
    let header = header(plan, comments: false)
    for (section, entries) in sections(plan.catalogue) {
      let start = header + "    \(section):\n"
      var part = start
      for entry in entries {
        write(entry, byMethod: section == "methods", to: &part)
        if part.utf8.count - start.utf8.count >= partBytes {
          try body(part)
          part = start
        }
      }
      if part.utf8.count > start.utf8.count { try body(part) }
    }
  }

  /// The catalogue's entries by section: `calls`, then `methods`.
  private static func sections(_ catalogue: ImportedCatalogue) -> [(String, [CatalogueEntry])] {
    [("calls", catalogue.calls), ("methods", catalogue.methods)]
  }

  /// Everything before the entries: with `comments`, where the plan comes from and its warnings.
  private static func header(_ plan: ImportedPlan, comments: Bool) -> String {
    var out = ""
    if comments {
      out += "# Imported by tagscope plan import --from \(plan.format.rawValue) from "
      out += YAMLText.comment(sourceList(plan.sources)) + ".\n"
      out += "# Review it: each entry says where it comes from in the source.\n"
      if !plan.warnings.isEmpty {
        let count = plan.warnings.count
        out += "# \(count) warning\(count == 1 ? "" : "s") (also printed on standard error):\n"
        for warning in plan.warnings { out += "#   \(YAMLText.comment(warning.description))\n" }
      }
    }
    out += "plan: \(YAMLText.scalar(plan.name))\n"
    if !PlanLoader.knowsProvider(plan.catalogue.provider) {
      // `--provider` named an SDK Tagscope does not know: the plan names it on purpose.
      out += "customProviders:\n  - \(YAMLText.scalar(plan.catalogue.provider))\n"
    }
    out += "catalogues:\n"
    let catalogue = plan.catalogue
    out += "  \(YAMLText.scalar(catalogue.provider)):\n"
    out += "    unplanned: \(catalogue.unplanned.rawValue)\n"
    for (key, path) in [("propertiesAt", catalogue.propertiesAt), ("entitiesAt", catalogue.entitiesAt)] {
      if let path { out += "    \(key): \(YAMLText.scalar(path))\n" }
    }
    if catalogue.valuesAsText { out += "    valuesAsText: true\n" }
    return out
  }

  /// How many source files the first comment line names; the others are counted.
  static let sourcesNamed = 10

  /// The sources, the first ``sourcesNamed`` by name and the others counted, so the first line
  /// stays short for a whole registry.
  static func sourceList(_ sources: [String]) -> String {
    guard sources.count > sourcesNamed else { return sources.joined(separator: ", ") }
    let more = sources.count - sourcesNamed
    return sources.prefix(sourcesNamed).joined(separator: ", ")
      + " and \(more) more file\(more == 1 ? "" : "s")"
  }

  /// Appends one entry to `out` (a large entry is not copied once more on its way).
  private static func write(_ entry: CatalogueEntry, byMethod: Bool, to out: inout String) {
    if let origin = entry.origin { out += "      # \(YAMLText.comment(origin.description))\n" }
    for note in entry.notes { out += "      # \(YAMLText.comment(note))\n" }
    out += "      \(YAMLText.scalar(entry.key)):\n"
    if !byMethod, let method = entry.method { out += "        method: \(YAMLText.scalar(method))\n" }
    if let path = entry.propertiesAt { out += "        propertiesAt: \(YAMLText.scalar(path))\n" }
    if let description = entry.description, !description.isEmpty {
      out += "        description: \(YAMLText.scalar(description))\n"
    }
    out += "        additionalProperties: \(entry.additionalProperties)\n"
    if !entry.params.isEmpty {
      out += "        params:\n"
      for param in entry.params { out += property(param, indent: 10) }
    }
    if !entry.messageParams.isEmpty {
      out += "        messageParams:\n"
      for param in entry.messageParams { out += property(param, indent: 10) }
    }
    if let keywords = entry.keywords {
      for field in keywordFields(keywords) { out += "        \(field)\n" }
    }
  }

  /// The deepest indent of a property written as a block: four levels of `properties` below an
  /// entry's `params`. Deeper schemas are written on one line each, not indented further (a
  /// schema nested 30 levels deep took 150 columns of spaces on each of its lines).
  static let deepestBlockIndent = 10 + 4 * 4

  /// One property: on one line (`name: {type: string, required: true}`) when it has no nested
  /// `properties` or `items` or is nested deeper than ``deepestBlockIndent``, else as a block.
  static func property(_ property: NamedConstraints, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    let name = YAMLText.scalar(property.name)
    let constraints = property.constraints
    guard constraints.properties != nil || constraints.items != nil else {
      return "\(pad)\(name): {\(flowFields(constraints).joined(separator: ", "))}\n"
    }
    guard indent <= deepestBlockIndent else { return "\(pad)\(name): \(flowSchema(constraints))\n" }
    return "\(pad)\(name):\n" + block(constraints, indent: indent + 2)
  }

  /// The keys of nested constraints, one a line, at `indent`.
  private static func block(_ constraints: PropertyConstraints, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    var out = ""
    for field in scalarFields(constraints) { out += "\(pad)\(field)\n" }
    if let properties = constraints.properties {
      if properties.isEmpty {
        out += "\(pad)properties: {}\n"
      } else {
        out += "\(pad)properties:\n"
        for property in properties { out += self.property(property, indent: indent + 2) }
      }
    }
    if let items = constraints.items {
      if items.properties == nil && items.items == nil {
        out += "\(pad)items: {\(flowFields(items).joined(separator: ", "))}\n"
      } else {
        out += "\(pad)items:\n" + block(items, indent: indent + 2)
      }
    }
    if let description = constraints.description {
      out += "\(pad)description: \(YAMLText.scalar(description))\n"
    }
    return out
  }

  private static func flowFields(_ constraints: PropertyConstraints) -> [String] {
    var fields = scalarFields(constraints)
    if let description = constraints.description {
      fields.append("description: \(YAMLText.scalar(description))")
    }
    return fields
  }

  /// `key: value` for every constraint but `properties`, `items` and `description`, in the
  /// format's order, the rarer keywords last.
  static func scalarFields(_ constraints: PropertyConstraints) -> [String] {
    var fields: [String] = []
    let types = constraints.types.map { YAMLText.scalar($0.rawValue) }
    if types.count == 1 {
      fields.append("type: \(types[0])")
    } else if !types.isEmpty {
      fields.append("type: [\(types.joined(separator: ", "))]")
    }
    if constraints.required { fields.append("required: true") }
    if let constant = constraints.constant { fields.append("const: \(constant.yaml)") }
    if let allowed = constraints.allowed {
      fields.append("enum: [\(allowed.map(\.yaml).joined(separator: ", "))]")
    }
    if let format = constraints.format { fields.append("format: \(format.rawValue)") }
    if let pii = piiField(constraints.allowedPII) { fields.append(pii) }
    if let pattern = constraints.pattern { fields.append("pattern: \(YAMLText.doubleQuoted(pattern))") }
    if let minimum = constraints.minimumValue { fields.append("minimum: \(NumberText.yaml(minimum))") }
    if let maximum = constraints.maximumValue { fields.append("maximum: \(NumberText.yaml(maximum))") }
    if let minLength = constraints.minLength { fields.append("minLength: \(minLength)") }
    if let maxLength = constraints.maxLength { fields.append("maxLength: \(maxLength)") }
    if let additional = constraints.additionalProperties {
      fields.append("additionalProperties: \(additional)")
    }
    if let keywords = constraints.keywords { fields += keywordFields(keywords) }
    return fields
  }
}
