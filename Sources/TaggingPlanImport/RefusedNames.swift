import TaggingPlan

/// Names the plan format refuses, taken out of an imported catalogue before it is written, each
/// with a warning at its entry's place in the source: an empty property name, a property name
/// given twice in one object (the first is kept), and a name (entry, property, or key of
/// `patternProperties`, `dependentSchemas`, `dependentRequired`) longer than a YAML key can be
/// (``YAMLText/simpleKeyLimit`` characters as written).
/// The plan written then loads, and says what it left out; the rest of the import is kept.
enum RefusedNames {
  /// Why `name` cannot be a key of the plan, or `nil` when it can.
  static func refusal(of name: String) -> String? {
    if name.isEmpty { return "an empty name" }
    let length = YAMLText.scalar(name).unicodeScalars.count
    guard length > YAMLText.simpleKeyLimit else { return nil }
    return "a name of \(length) characters (more than \(YAMLText.simpleKeyLimit))"
  }

  /// The warning refusing the entry `entry`, whose key the plan cannot hold; `nil` when it can.
  static func refusal(of entry: CatalogueEntry) -> ImportWarning? {
    guard let why = refusal(of: entry.key), let origin = entry.origin else { return nil }
    return ImportWarning(
      file: origin.file, location: origin.location, path: origin.path,
      message:
        "the entry at \(origin.path) has \(why) starting \"\(entry.key.prefix(40))\": refused by the plan format, it is left out"
    )
  }

  /// Removes every refused property name from `catalogue`'s entries; the warnings say which, at
  /// the entry's place in the source (the start of `file` for an entry the importer added).
  static func remove(from catalogue: inout ImportedCatalogue, file: String) -> [ImportWarning] {
    var warnings: [ImportWarning] = []
    catalogue.updateEntries { entry in
      let origin =
        entry.origin
        ?? EntryOrigin(file: file, location: SourceLocation(line: 1, column: 1), path: .root, summary: "")
      let what = "params of \(entry.method.map { "\($0) " } ?? "")\"\(entry.key)\""
      let refused: (String, [String]) -> Void = { why, trail in
        let place = trail.isEmpty ? "" : " in \(trail.joined(separator: "."))"
        warnings.append(
          ImportWarning(
            file: origin.file, location: origin.location, path: origin.path,
            message: "\(why)\(place) (\(what), \(origin.path)) is refused by the plan format: left out"))
      }
      entry.params = kept(entry.params, within: [], refused)
      entry.messageParams = kept(entry.messageParams, within: [], refused)
    }
    return warnings
  }

  /// `properties` without refused names, at every depth (nested properties, items, subschemas of
  /// the rarer keywords); `refused` is told why and the names leading to each one left out.
  private static func kept(
    _ properties: [NamedConstraints], within trail: [String], _ refused: (String, [String]) -> Void
  ) -> [NamedConstraints] {
    var seen: Set<String> = []
    return properties.compactMap { property in
      if let why = refusal(of: property.name) {
        refused(why == "an empty name" ? "an empty property name" : "a property with \(why)", trail)
        return nil
      }
      guard seen.insert(property.name).inserted else {
        refused("a second property named \"\(property.name)\"", trail)
        return nil
      }
      var property = property
      property.constraints = kept(property.constraints, within: trail + [property.name], refused)
      return property
    }
  }

  /// `constraints` without refused names below it.
  private static func kept(
    _ constraints: PropertyConstraints, within trail: [String], _ refused: (String, [String]) -> Void
  ) -> PropertyConstraints {
    var constraints = constraints
    if let nested = constraints.properties {
      constraints.properties = kept(nested, within: trail, refused)
    }
    if let items = constraints.items {
      constraints.items = kept(items, within: trail + ["items"], refused)
    }
    if var keywords = constraints.keywords?.map({ kept($0, within: trail, refused) }) {
      // The names of these keywords are keys of a flow mapping in the plan: too long, refused too.
      func fits(_ keyword: String, _ name: String) -> Bool {
        guard !name.isEmpty, let why = refusal(of: name) else { return true }
        refused("\(keyword) with \(why)", trail)
        return false
      }
      keywords.patternProperties.removeAll { !fits("patternProperties", $0.pattern.source) }
      keywords.dependentSchemas.removeAll { !fits("dependentSchemas", $0.name) }
      keywords.dependentRequired.removeAll { !fits("dependentRequired", $0.name) }
      constraints.keywords = keywords
    }
    return constraints
  }
}
