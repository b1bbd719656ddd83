import TaggingPlan

/// One source format's reader: its documents in, in order, then the catalogue's draft out.
protocol FormatImporter {
  /// An importer of calls `provider` receives, whose unplanned calls are `unplanned`.
  init(provider: String, unplanned: UnplannedCalls)
  /// Takes what of `options` the format uses besides the provider and unplanned calls.
  mutating func configure(_ options: ImportOptions)
  /// What the whole import may expand to (set before the first document is read).
  var budget: ExpansionBudget { get set }
  /// Reads one document; throws what makes it unusable.
  mutating func read(_ document: SourceDocument) throws(ImportError)
  /// The draft of everything read (references between documents resolved).
  mutating func finish() throws(ImportError) -> ImportDraft
}

extension FormatImporter {
  mutating func configure(_ options: ImportOptions) {}
}

extension SegmentImporter: FormatImporter {}
extension RudderStackImporter: FormatImporter {}
extension IgluImporter: FormatImporter {}
extension MParticleImporter: FormatImporter {}
extension JSONSchemaImporter: FormatImporter {}
