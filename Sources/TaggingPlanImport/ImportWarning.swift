import TaggingPlan

/// Something of the source the imported plan does not carry (a constraint Tagscope does not
/// check, a duplicate entry, a version left out), with its place in the source.
public struct ImportWarning: Sendable, Hashable, CustomStringConvertible {
  /// The source file.
  public var file: String
  /// Where in the file.
  public var location: SourceLocation
  /// The place in the document (`rules.events[0].rules`).
  public var path: JSONPath
  /// What is not carried, naming `path`: `minItems (….minItems) is not checked by Tagscope`.
  public var message: String

  /// A warning.
  public init(file: String, location: SourceLocation, path: JSONPath, message: String) {
    self.file = file
    self.location = location
    self.path = path
    self.message = message
  }

  /// `keyword (path) is not checked by Tagscope`.
  static func notChecked(_ keyword: String, file: String, at location: SourceLocation, path: JSONPath)
    -> ImportWarning
  {
    ImportWarning(
      file: file, location: location, path: path, message: "\(keyword) (\(path)) is not checked by Tagscope")
  }

  /// `file:line:column: warning: message`.
  public var description: String { "\(file):\(location.line):\(location.column): warning: \(message)" }
}
