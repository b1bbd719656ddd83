import TaggingPlan

/// What an importer builds while it reads: the catalogue, the plan name it found, the warnings.
struct ImportDraft {
  /// The plan name the source gives, the first one found.
  var name: String?
  /// The catalogue.
  var catalogue: ImportedCatalogue
  /// The warnings, in the order met.
  var warnings: [ImportWarning] = []

  init(provider: String, unplanned: UnplannedCalls) {
    catalogue = ImportedCatalogue(provider: provider, unplanned: unplanned)
  }

  /// Keeps `name` unless a name is already known (or it is empty).
  mutating func offerName(_ name: String?) {
    if self.name == nil, let name, !name.isEmpty { self.name = name }
  }

  /// Adds a `calls` entry, or warns why not (its name is refused, or already imported).
  mutating func addCall(_ entry: CatalogueEntry) {
    if let refusal = RefusedNames.refusal(of: entry) { return warnings.append(refusal) }
    if let warning = catalogue.addCall(entry) { warnings.append(warning) }
  }

  /// Adds a `methods` entry, or warns why not.
  mutating func addMethod(_ entry: CatalogueEntry) {
    if let refusal = RefusedNames.refusal(of: entry) { return warnings.append(refusal) }
    if let warning = catalogue.addMethod(entry) { warnings.append(warning) }
  }

  mutating func warn(_ warning: ImportWarning) { warnings.append(warning) }
}
