import TaggingPlan

/// What an importer builds while it reads: the catalogue, the plan name it found, the warnings.
struct ImportDraft {
  /// The plan name the source gives, the first one found.
  var name: String?
  /// The catalogue.
  var catalogue: ImportedCatalogue
  /// The warnings, in the order met, each once when added by ``warn(_:)`` (the plan made of
  /// them keeps each once whatever adds them).
  var warnings: [ImportWarning] = []
  /// The warnings ``warn(_:)`` kept: a warning met again (the budget's, once per event of many
  /// thousand sharing one schema) is not held twice while the import runs.
  private var seen: Set<ImportWarning> = []

  init(provider: String, unplanned: UnplannedCalls) {
    catalogue = ImportedCatalogue(provider: provider, unplanned: unplanned)
  }

  /// Keeps `name` unless a name is already known (or it is empty).
  mutating func offerName(_ name: String?) {
    if self.name == nil, let name, !name.isEmpty { self.name = name }
  }

  /// Adds a `calls` entry, or warns why not (its name is refused, or already imported).
  mutating func addCall(_ entry: CatalogueEntry) {
    if let refusal = RefusedNames.refusal(of: entry) { return warn(refusal) }
    if let warning = catalogue.addCall(entry) { warn(warning) }
  }

  /// Adds a `methods` entry, or warns why not.
  mutating func addMethod(_ entry: CatalogueEntry) {
    if let refusal = RefusedNames.refusal(of: entry) { return warn(refusal) }
    if let warning = catalogue.addMethod(entry) { warn(warning) }
  }

  /// Keeps `warning` unless the same one (file, place, path and message) is kept.
  mutating func warn(_ warning: ImportWarning) {
    guard seen.insert(warning).inserted else { return }
    warnings.append(warning)
  }
}
