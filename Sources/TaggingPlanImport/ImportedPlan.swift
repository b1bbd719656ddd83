/// What `tagscope plan import` produces: a plan with one call catalogue, and what of the source
/// it does not carry.
public struct ImportedPlan: Sendable, Hashable {
  /// The plan's name (`plan:`).
  public let name: String
  /// The format it was imported from.
  public let format: ImportFormat
  /// The files read, in order.
  public let sources: [String]
  /// The catalogue.
  public let catalogue: ImportedCatalogue
  /// What is not carried, each once, by file (in the order read), line and column.
  public let warnings: [ImportWarning]
  /// Why the sources were read in ``format`` (the keys that told it, or `--from`); `nil` when
  /// the caller gave parsed documents and their format.
  public internal(set) var evidence: FormatEvidence?
  /// What became of the sources' keys: each carried, or reported by one of ``warnings``
  /// (``KeyAccount``); all zero when the plan was not imported from documents.
  public internal(set) var keys = KeyAccount()

  /// A plan.
  public init(
    name: String, format: ImportFormat, sources: [String], catalogue: ImportedCatalogue,
    warnings: [ImportWarning]
  ) {
    self.name = name
    self.format = format
    self.sources = sources
    self.catalogue = catalogue
    var seen: Set<ImportWarning> = []
    let unique = warnings.filter { seen.insert($0).inserted }
    let order = Dictionary(sources.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    self.warnings = unique.enumerated().sorted { left, right in
      let leftKey = (
        order[left.element.file] ?? sources.count, left.element.location.line, left.element.location.column
      )
      let rightKey = (
        order[right.element.file] ?? sources.count, right.element.location.line, right.element.location.column
      )
      return leftKey != rightKey ? leftKey < rightKey : left.offset < right.offset
    }.map(\.element)
    yaml = ""
    yaml = CatalogueWriter.yaml(self)
  }

  /// The plan as YAML (``CatalogueWriter``), written once: the import loads it, the command
  /// writes it.
  public private(set) var yaml: String
}
