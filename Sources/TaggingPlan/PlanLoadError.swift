/// Why a plan could not be loaded: one message naming the file, line and column.
///
/// Loading is all or nothing: when this is thrown no part of the plan is used.
public struct PlanLoadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The plan's file name (or the label given to ``PlanLoader/load(yaml:file:)``).
  public var file: String
  public var location: SourceLocation
  /// A plain sentence naming the key or value at fault.
  public var message: String

  /// An error.
  public init(file: String, location: SourceLocation, message: String) {
    self.file = file
    self.location = location
    self.message = message
  }

  /// `file:line:column: message`.
  public var description: String { "\(file):\(location.line):\(location.column): \(message)" }
}
