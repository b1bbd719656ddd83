import Foundation
import TaggingPlan

/// `tagscope plan import`: reads tracking plans of other tools (``ImportFormat``) and turns them
/// into a Tagscope plan whose `catalogues:` section describes the calls one provider receives.
///
/// ```swift
/// let plan = try PlanImporter.run(paths: ["plan.json"], options: ImportOptions(format: .segment))
/// print(plan.yaml)                      // the plan; plan.warnings: what it does not carry
/// ```
public enum PlanImporter {
  /// Reads `paths` (files or directories) and imports them; throws the first problem that makes
  /// the source unusable (nothing is imported then). Runs on an import thread of its own
  /// (``ImportStack``), so any caller's stack will do.
  public static func run(paths: [String], options: ImportOptions = ImportOptions()) throws(ImportError)
    -> ImportedPlan
  {
    guard !paths.isEmpty else {
      throw ImportError(file: "tagscope plan import", message: "no file to import")
    }
    return try ImportStack.run { () throws(ImportError) -> ImportedPlan in
      var (evidence, documents, notRead) = try read(paths, format: options.format)
      let unread = notRead.map { entry in
        ImportWarning(
          file: entry.path, location: SourceLocation(line: 1, column: 1), path: .root, message: entry.message)
      }
      var plan = try build(
        &documents, format: evidence.format, options: options, source: paths[0], unread: unread)
      plan.evidence = evidence
      return plan
    }
  }

  /// Imports parsed documents of a known format; the plan is named after the first document
  /// when neither the options nor the source name it.
  public static func run(
    documents: [SourceDocument], format: ImportFormat, options: ImportOptions = ImportOptions()
  ) throws(ImportError) -> ImportedPlan {
    try ImportStack.run { () throws(ImportError) -> ImportedPlan in
      var documents = documents
      return try build(
        &documents, format: format, options: options, source: documents.first?.file ?? "Imported plan")
    }
  }

  /// The plan of `documents`, named after `source` (a path) when neither the options nor the
  /// source name it. `documents` is emptied once drafted: the trees read are let go (when no one
  /// else holds them) before the plan written is checked as a load would, in parts
  /// (``CatalogueWriter/eachPart(of:partBytes:_:)``).
  private static func build(
    _ documents: inout [SourceDocument], format: ImportFormat, options: ImportOptions, source: String,
    unread: [ImportWarning] = []
  ) throws(ImportError) -> ImportedPlan {
    guard let provider = options.provider ?? format.defaultProvider else {
      throw ImportError(
        file: documents.first?.file ?? "tagscope plan import",
        message:
          "a JSON Schema export does not say which provider receives its calls: pass --provider ID (amplitude, mixpanel, segment…)"
      )
    }
    let ledger = KeyLedger(documents)
    var draft = try KeyLedger.recording(ledger) { () throws(ImportError) -> ImportDraft in
      try importDocuments(documents, format: format, provider: provider, options: options)
    }
    draft.warnings = unread + documents.flatMap(\.readWarnings) + draft.warnings
    draft.warnings += RefusedNames.remove(from: &draft.catalogue, file: documents.first?.file ?? source)
    try requireAnEvent(draft, documents)
    var accounting = KeyAccounting(ledger, warnings: draft.warnings, listing: options.listsEveryKey)
    for document in documents { accounting.settle(document) }
    draft.warnings += accounting.warnings
    let files = documents.map(\.file)
    documents = []
    MemoryRelease.returnFreedPages()
    let fallback = "\(SourceDocument.baseName(source)) (imported)"
    var plan = ImportedPlan(
      name: options.name ?? draft.name ?? fallback, format: format, sources: files,
      catalogue: draft.catalogue, warnings: draft.warnings)
    plan.keys = accounting.account
    draft = ImportDraft(provider: "", unplanned: .error)
    do {
      try CatalogueWriter.eachPart(of: plan) { try PlanLoader.check(yaml: $0, file: "the imported plan") }
    } catch {
      throw ImportError(
        file: files.first ?? "tagscope plan import",
        message: "the imported plan would not load, so it is not written: \(error)", warnings: plan.warnings)
    }
    return plan
  }

  /// Fails when the catalogue keeps no entry of the source (every rule left out, or none there):
  /// a plan that calls every event unplanned is not an import. The warnings say why.
  private static func requireAnEvent(_ draft: ImportDraft, _ documents: [SourceDocument]) throws(ImportError)
  {
    let catalogue = draft.catalogue
    guard !(catalogue.calls + catalogue.methods).contains(where: { $0.origin != nil }) else { return }
    let files = documents.count == 1 ? documents[0].file : "\(documents.count) files"
    let why =
      draft.warnings.isEmpty
      ? "it holds no event definition"
      : "every event definition is left out (\(draft.warnings.count == 1 ? "1 warning says" : "\(draft.warnings.count) warnings say") why)"
    throw ImportError(
      file: documents.first?.file ?? "tagscope plan import",
      message: "nothing imported from \(files): \(why)", warnings: draft.warnings)
  }

  private static func importDocuments(
    _ documents: [SourceDocument], format: ImportFormat, provider: String, options: ImportOptions
  ) throws(ImportError) -> ImportDraft {
    switch format {
    case .segment:
      return try draft(with: SegmentImporter.self, documents, provider: provider, options: options)
    case .rudderstack where RudderTyperImporter.reads(documents):
      return try draft(with: RudderTyperImporter.self, documents, provider: provider, options: options)
    case .rudderstack:
      return try draft(with: RudderStackImporter.self, documents, provider: provider, options: options)
    case .iglu: return try draft(with: IgluImporter.self, documents, provider: provider, options: options)
    case .mparticle:
      return try draft(with: MParticleImporter.self, documents, provider: provider, options: options)
    case .jsonschema:
      return try draft(with: JSONSchemaImporter.self, documents, provider: provider, options: options)
    }
  }

  /// Reads every document with one format's importer, then drafts the catalogue.
  private static func draft<Importer: FormatImporter>(
    with _: Importer.Type, _ documents: [SourceDocument], provider: String, options: ImportOptions
  ) throws(ImportError) -> ImportDraft {
    var importer = Importer(provider: provider, unplanned: options.unplanned)
    importer.configure(options)
    importer.budget = ExpansionBudget(sourceBytes: documents.reduce(0) { $0 + $1.byteCount })
    for document in documents { try importer.read(document) }
    return try importer.finish()
  }

  /// The format (given, or told from the first document, with the keys that told it) and the
  /// documents of `paths`.
  static func read(_ paths: [String], format given: ImportFormat?) throws(ImportError)
    -> (FormatEvidence, [SourceDocument], unread: [ImportInput.Unread])
  {
    var evidence = given.map { FormatEvidence(format: $0, reason: "--from \($0.rawValue)") }
    var documents: [SourceDocument] = []
    var unread: [ImportInput.Unread] = []
    for path in paths {
      let listed = try files(at: path, format: evidence?.format)
      unread += listed.unread
      for file in listed.files {
        let document = try DocumentReader.document(path: file)
        if evidence == nil { evidence = try detect(document) }
        documents.append(document)
      }
    }
    guard let evidence, !documents.isEmpty else {
      throw ImportError(file: paths.joined(separator: ", "), message: "no file to import there")
    }
    return (evidence, documents, unread)
  }

  /// The one format `document` matches; an error naming the choices when it matches none or
  /// several (`--from` picks).
  private static func detect(_ document: SourceDocument) throws(ImportError) -> FormatEvidence {
    let candidates = FormatEvidence.candidates(document.root)
    if candidates.count == 1 { return candidates[0] }
    guard !candidates.isEmpty else {
      throw ImportError(
        file: document.file,
        message:
          "cannot tell which tool this file comes from: pass --from \(ImportFormat.allCases.map(\.rawValue).joined(separator: "|"))"
      )
    }
    let choices = candidates.map { "\($0.format.displayName) (\($0.reason))" }.joined(separator: "; ")
    let flags = candidates.map { "--from \($0.format.rawValue)" }.joined(separator: " or ")
    throw ImportError(
      file: document.file,
      message: "this file reads as \(candidates.count) formats, \(choices): pass \(flags)")
  }

  /// The files to read at `path`: the file itself, or in a directory those the format reads
  /// (Iglu's `vendor/name/jsonschema/version` files, YAML files for rudder-cli or, when there are
  /// none, RudderTyper's `plan.json`, else JSON and YAML files); when the format is unknown,
  /// Iglu's layout if the directory has it.
  private static func files(at path: String, format: ImportFormat?) throws(ImportError) -> ImportInput.Tree {
    // A file is read as given; a tree is listed once, whatever the formats look for in it.
    guard let tree = try ImportInput.tree(at: path) else {
      return ImportInput.Tree(files: [path], unread: [])
    }
    let reads: (String) -> Bool
    switch format {
    case .iglu: reads = ImportInput.isIgluSchema
    case .rudderstack:
      if tree.files.contains(where: ImportInput.isYAML) {
        reads = ImportInput.isYAML
      } else {
        reads = ImportInput.isRudderTyperPlan
      }
    case .segment, .mparticle, .jsonschema: reads = ImportInput.isDocument
    case nil:
      if tree.files.contains(where: ImportInput.isIgluSchema) {
        reads = ImportInput.isIgluSchema
      } else {
        reads = ImportInput.isDocument
      }
    }
    // What the walk did not read is reported, not skipped without a word: a directory always, an
    // entry where a file would stand when the format would have read it.
    return ImportInput.Tree(
      files: tree.files.filter(reads), unread: tree.unread.filter { !$0.isFileLike || reads($0.path) })
  }

}
