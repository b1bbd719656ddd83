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
  /// The first of its keys' ordinals (``KeyOrdinals``).
  var firstOrdinal: UInt32 = 0
  /// The ordinal after its keys' last.
  var ordinalEnd: UInt32 = 0

  /// A document (its keys' ordinals found by a walk over `root`).
  public init(file: String, root: SourceNode, readWarnings: [ImportWarning] = [], byteCount: Int = 0) {
    self.file = file
    self.root = root
    self.readWarnings = readWarnings
    self.byteCount = byteCount
    (firstOrdinal, ordinalEnd) = Self.ordinalSpan(root)
  }

  /// The lowest ordinal of `root`'s keys and the one after the highest ((0, 0) without keys).
  private static func ordinalSpan(_ root: SourceNode) -> (UInt32, UInt32) {
    var (low, high): (UInt32, UInt32) = (.max, 0)
    var pending = [root]
    while let node = pending.popLast() {
      if let elements = node.arrayElements { pending += elements }
      for member in node.objectMembers ?? [] {
        (low, high) = (min(low, member.ordinal), max(high, member.ordinal))
        pending.append(member.value)
      }
    }
    return low > high ? (0, 0) : (low, high &+ 1)
  }

  /// A document whose keys `ordinals` numbered.
  init(
    file: String, root: SourceNode, readWarnings: [ImportWarning] = [], byteCount: Int, ordinals: KeyOrdinals
  ) {
    self.file = file
    self.root = root
    self.readWarnings = readWarnings
    self.byteCount = byteCount
    firstOrdinal = ordinals.first
    ordinalEnd = ordinals.end
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
