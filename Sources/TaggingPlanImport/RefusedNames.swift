import TaggingPlan

/// Names the plan format refuses (an empty property name), taken out of an imported catalogue
/// before it is written, each with a warning at its entry's place in the source: the plan written
/// then loads, and says what it left out.
enum RefusedNames {
  /// Removes every refused property name from `catalogue`'s entries; the warnings say which, at
  /// the entry's place in the source (the start of `file` for an entry the importer added).
  static func remove(from catalogue: inout ImportedCatalogue, file: String) -> [ImportWarning] {
    var warnings: [ImportWarning] = []
    catalogue.updateEntries { entry in
      let origin =
        entry.origin
        ?? EntryOrigin(file: file, location: SourceLocation(line: 1, column: 1), path: .root, summary: "")
      let what = "params of \(entry.method.map { "\($0) " } ?? "")\"\(entry.key)\""
      entry.params = kept(entry.params, within: []) { trail in
        let place = trail.isEmpty ? "" : " in \(trail.joined(separator: "."))"
        warnings.append(
          ImportWarning(
            file: origin.file, location: origin.location, path: origin.path,
            message:
              "an empty property name\(place) (\(what), \(origin.path)) is refused by the plan format: left out"
          ))
      }
    }
    return warnings
  }

  /// `properties` without refused names, at every depth; `refused` is told the names leading to
  /// each one left out.
  private static func kept(
    _ properties: [NamedConstraints], within trail: [String], _ refused: ([String]) -> Void
  ) -> [NamedConstraints] {
    properties.compactMap { property in
      guard !property.name.isEmpty else {
        refused(trail)
        return nil
      }
      var property = property
      let here = trail + [property.name]
      if let nested = property.constraints.properties {
        property.constraints.properties = kept(nested, within: here, refused)
      }
      if var items = property.constraints.items {
        if let nested = items.properties {
          items.properties = kept(nested, within: here + ["items"], refused)
          property.constraints.items = items
        }
      }
      return property
    }
  }
}
