import TaggingPlan

/// Where an imported entry comes from: `plan.json:14:7 rules.events[2] "Order Completed" version 2`.
public struct EntryOrigin: Sendable, Hashable, CustomStringConvertible {
  /// The source file.
  public var file: String
  /// Where the entry's definition starts.
  public var location: SourceLocation
  /// Its place in the document.
  public var path: JSONPath
  /// What it is in the source's words (`"Order Completed" version 2`).
  public var summary: String

  /// An origin.
  public init(file: String, location: SourceLocation, path: JSONPath, summary: String) {
    self.file = file
    self.location = location
    self.path = path
    self.summary = summary
  }

  public var description: String {
    "\(file):\(location.line):\(location.column) \(path)\(summary.isEmpty ? "" : " \(summary)")"
  }
}

/// One entry of an imported call catalogue: the calls it matches (by name under `calls`, by
/// method under `methods`) and the constraints on their parameters.
public struct CatalogueEntry: Sendable, Hashable {
  /// The call name (a `calls` entry) or the SDK method (a `methods` entry).
  public var key: String
  /// The SDK method of a `calls` entry, when the source says it.
  public var method: String?
  /// Free text from the source.
  public var description: String?
  /// Whether the call may carry parameters `params` does not list.
  public var additionalProperties: Bool
  /// The parameters' constraints, in source order.
  public var params: [NamedConstraints]
  /// Constraints on the whole message an SDK sends (`context`), in source order.
  public var messageParams: [NamedConstraints] = []
  /// Where a recorded SDK message holds the properties `params` describe (`traits`), when it
  /// differs from its catalogue's ``ImportedCatalogue/propertiesAt``.
  public var propertiesAt: String?
  /// Where it comes from; `nil` for an entry the importer adds (Segment's unplanned methods).
  public var origin: EntryOrigin?
  /// More comment lines (merged rules, versions kept).
  public var notes: [String] = []

  /// An entry.
  public init(
    key: String, method: String? = nil, description: String? = nil, additionalProperties: Bool = true,
    params: [NamedConstraints] = [], origin: EntryOrigin?
  ) {
    self.key = key
    self.method = method
    self.description = description
    self.additionalProperties = additionalProperties
    self.params = params
    self.origin = origin
  }
}
