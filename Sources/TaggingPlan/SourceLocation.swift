/// A place in a plan file: 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  /// A location.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}
