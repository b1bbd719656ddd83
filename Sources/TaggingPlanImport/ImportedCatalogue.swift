import TaggingPlan

/// The call catalogue of one provider, as imported: a plan's `catalogues: {provider: …}`.
public struct ImportedCatalogue: Sendable, Hashable {
  /// The provider id (`segment`).
  public var provider: String
  /// What a call no entry matches is.
  public var unplanned: UnplannedCalls
  /// Where a recorded SDK message holds the properties its entries' `params` describe
  /// (`properties`, `event_properties`); `nil`: the message's fields are the parameters.
  public var propertiesAt: String?
  /// Where a call holds self-describing entities, each checked against its schema's entry
  /// (`entitiesAt`, Snowplow's `contexts.data`).
  public var entitiesAt: String?
  /// Whether the SDKs send parameter values as text, so a number or boolean parameter takes its
  /// canonical text (`valuesAsText`, mParticle's mobile SDKs).
  public var valuesAsText = false
  /// Entries matched by call name, in source order.
  public private(set) var calls: [CatalogueEntry] = []
  /// Entries matched by SDK method alone, in source order.
  public private(set) var methods: [CatalogueEntry] = []
  /// Where each key is in `calls` and in `methods`, so adding an entry takes constant time.
  private var callPositions: [String: Int] = [:]
  private var methodPositions: [String: Int] = [:]

  /// An empty catalogue.
  public init(provider: String, unplanned: UnplannedCalls = .error) {
    self.provider = provider
    self.unplanned = unplanned
  }

  /// Makes room for `count` more `calls` entries at once (a registry of many thousand events
  /// otherwise doubles its array a dozen times, holding both halves at each step).
  mutating func reserveCalls(_ count: Int) {
    calls.reserveCapacity(calls.count + count)
    callPositions.reserveCapacity(calls.count + count)
  }

  /// Adds a `calls` entry, or returns why not: an entry with its name is already there (the plan
  /// keys calls by name, so the first is kept).
  @discardableResult
  public mutating func addCall(_ entry: CatalogueEntry) -> ImportWarning? {
    if let first = callPositions[entry.key] {
      return duplicate(entry, calls[first], "a call named \"\(entry.key)\"")
    }
    callPositions[entry.key] = calls.count
    calls.append(entry)
    return nil
  }

  /// Adds a `methods` entry, or returns why not (one for the method is already there).
  @discardableResult
  public mutating func addMethod(_ entry: CatalogueEntry) -> ImportWarning? {
    if let first = methodPositions[entry.key] {
      return duplicate(entry, methods[first], "the method \(entry.key)")
    }
    methodPositions[entry.key] = methods.count
    methods.append(entry)
    return nil
  }

  /// Changes the `calls` entry named `key`, if any; its key stays as it is.
  mutating func updateCall(_ key: String, _ change: (inout CatalogueEntry) -> Void) {
    guard let index = callPositions[key] else { return }
    change(&calls[index])
  }

  /// Changes every entry (`calls`, then `methods`); keys stay as they are (they index the entries).
  mutating func updateEntries(_ change: (inout CatalogueEntry) -> Void) {
    for index in calls.indices { change(&calls[index]) }
    for index in methods.indices { change(&methods[index]) }
  }

  private func duplicate(_ entry: CatalogueEntry, _ first: CatalogueEntry, _ what: String) -> ImportWarning {
    let origin =
      entry.origin
      ?? EntryOrigin(file: "", location: SourceLocation(line: 1, column: 1), path: .root, summary: "")
    let earlier = first.origin.map { " from \($0.file):\($0.location)" } ?? ""
    return ImportWarning(
      file: origin.file, location: origin.location, path: origin.path,
      message: "\(what) (\(origin.path)) is already imported\(earlier): this one is left out")
  }
}
