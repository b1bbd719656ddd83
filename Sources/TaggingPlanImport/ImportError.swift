import TaggingPlan

/// Why a source cannot be imported (invalid JSON or YAML, a file not of the format, a required
/// field missing), with its place: nothing is written.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The source file (or the argument that named it).
  public var file: String
  /// Where in the file (1:1 when the whole file is concerned).
  public var location: SourceLocation
  /// What is wrong.
  public var message: String
  /// What the import met before it failed (the rules it left out, and why).
  public var warnings: [ImportWarning]

  /// An error.
  public init(
    file: String, location: SourceLocation = SourceLocation(line: 1, column: 1), message: String,
    warnings: [ImportWarning] = []
  ) {
    self.file = file
    self.location = location
    self.message = message
    self.warnings = warnings
  }

  /// An error at `node` of `file`.
  init(_ file: String, _ node: SourceNode, _ message: String) {
    self.init(file: file, location: node.location, message: message)
  }

  /// `file:line:column: error: message`.
  public var description: String { "\(file):\(location.line):\(location.column): error: \(message)" }
}
