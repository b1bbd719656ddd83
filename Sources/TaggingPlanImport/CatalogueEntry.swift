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
  /// The keywords of the parameters as one object (`anyOf`, `minProperties`…: the event
  /// schema's own), written at the entry's level; `nil` when none.
  public var keywords: SchemaKeywords<PropertyConstraints>? {
    get { keywordStorage.first }
    set { keywordStorage = newValue.flatMap { $0.isEmpty ? nil : [$0] } ?? [] }
  }
  /// ``keywords`` out of line: an import of many thousand entries, most with none, holds an
  /// empty array each.
  private var keywordStorage: [SchemaKeywords<PropertyConstraints>] = []

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

extension CatalogueEntry {
  /// Takes the parameters from the schema of the object that holds them (`object`, converted):
  /// its properties, `additionalProperties`, and its own keywords, `allOf` branches of plain
  /// object schemas merged into the parameters (``PropertyConstraints/mergingObjectBranches()``).
  /// `enum` and `const` of the whole object, which an entry does not take, go into an `allOf`
  /// branch.
  mutating func carry(_ object: PropertyConstraints) {
    let merged = object.mergingObjectBranches()
    params = merged.properties ?? []
    additionalProperties = merged.additionalProperties ?? true
    guard var keywords = merged.keywords else {
      self.keywords = nil
      return
    }
    if keywords.enumValues != nil || keywords.constValue != nil {
      var values = SchemaKeywords<PropertyConstraints>()
      (values.enumValues, values.constValue) = (keywords.enumValues, keywords.constValue)
      (keywords.enumValues, keywords.constValue) = (nil, nil)
      var branch = PropertyConstraints()
      branch.keywords = values
      keywords.allOf.append(branch)
    }
    self.keywords = keywords.isEmpty ? nil : keywords
  }

  /// The warnings for what of `object` (the schema `node` of the object that holds the
  /// parameters, at `path` of `file`) an entry does not take: constraints of a value that is not
  /// an object (`type: array`, `enum` of scalars, `minimum`, `items`…), and draft-03's
  /// `required: true` of the object itself (the parameters are required by name); none when there
  /// is nothing left out.
  static func leftOutWarnings(
    _ object: PropertyConstraints, node: SourceNode, file: String, path: JSONPath
  ) -> [ImportWarning] {
    var warnings: [ImportWarning] = []
    if object.required, let flag = node.member("required"), flag.value.bool == true {
      let here = path.key("required")
      warnings.append(
        ImportWarning(
          file: file, location: flag.keyLocation, path: here,
          message:
            "required: true of the object holding the parameters (\(here)) is not checked by Tagscope: an entry's parameters are required by name (required: [name…])"
        ))
    }
    let words: [(String, Bool)] = [
      ("type", !object.types.isEmpty && !object.types.contains(.object)), ("enum", object.allowed != nil),
      ("const", object.constant != nil), ("pattern", object.pattern != nil), ("format", object.format != nil),
      ("minimum", object.minimum != nil), ("maximum", object.maximum != nil),
      ("minLength", object.minLength != nil), ("maxLength", object.maxLength != nil),
      ("items", object.items != nil),
    ]
    let found = words.filter(\.1).map(\.0)
    guard !found.isEmpty else { return warnings }
    return warnings + [
      ImportWarning(
        file: file, location: node.location, path: path,
        message:
          "\(found.joined(separator: ", ")) of the object holding the parameters (\(path)) is not checked by Tagscope: an entry checks its parameters as an object"
      )
    ]
  }
}
