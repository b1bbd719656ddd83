/// A place in a plan file: 1-based line and column.
///
/// Stored in 32 bits each (a line or column past 4,294,967,295 reads as that): every rule, entry
/// and imported node carries one, and an import of many thousand events holds millions.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  private var storedLine: UInt32
  private var storedColumn: UInt32

  /// The 1-based line.
  public var line: Int {
    get { Int(storedLine) }
    set { storedLine = UInt32(clamping: newValue) }
  }

  /// The 1-based column.
  public var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = UInt32(clamping: newValue) }
  }

  /// A location.
  public init(line: Int, column: Int) {
    storedLine = UInt32(clamping: line)
    storedColumn = UInt32(clamping: column)
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}
