import TaggingPlan

/// One parsed source file.
public struct SourceDocument: Sendable, Hashable {
  /// The file, as named to the importer.
  public var file: String
  /// Its root value.
  public var root: SourceNode
  /// What reading it met and let pass (a repeated JSON key, its last value kept).
  public var readWarnings: [ImportWarning]
  /// The size of its text in bytes (0 when not read from text): what its import may expand to
  /// grows with it (``ExpansionBudget``).
  public var byteCount: Int

  /// A document.
  public init(file: String, root: SourceNode, readWarnings: [ImportWarning] = [], byteCount: Int = 0) {
    self.file = file
    self.root = root
    self.readWarnings = readWarnings
    self.byteCount = byteCount
  }

  /// The file name without directories and extension (`plan` for `exports/plan.json`).
  var baseName: String { Self.baseName(file) }

  /// `file` without directories and its extension when a document's (`.json`, `.yaml`,
  /// `.yml`): a directory named `com.sendgrid` keeps its name whole.
  static func baseName(_ file: String) -> String {
    let last = file.split(separator: "/").last.map(String.init) ?? file
    guard let dot = last.lastIndex(of: "."), dot != last.startIndex,
      ["json", "yaml", "yml"].contains(last[last.index(after: dot)...].lowercased())
    else { return last }
    return String(last[..<dot])
  }

  /// An error at `node` of this file.
  func error(_ node: SourceNode, _ message: String) -> ImportError { ImportError(file, node, message) }

  /// A warning at `location` of this file.
  func warning(_ location: SourceLocationLike, _ path: JSONPath, _ message: String) -> ImportWarning {
    ImportWarning(file: file, location: location.sourceLocation, path: path, message: message)
  }
}

/// A node or a member key: something with a place in a source.
protocol SourceLocationLike {
  var sourceLocation: SourceLocation { get }
}

extension SourceNode: SourceLocationLike {
  var sourceLocation: SourceLocation { location }
}

extension SourceNode.Member: SourceLocationLike {
  var sourceLocation: SourceLocation { keyLocation }
}

extension SourceLocation: SourceLocationLike {
  var sourceLocation: SourceLocation { self }
}
