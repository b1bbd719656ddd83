/// A terminal size in columns and rows.
public struct Size: Sendable, Hashable {
  public var width: Int
  public var height: Int

  /// A size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}

/// A rectangle of cells: origin column/row and size.
public struct Rect: Sendable, Hashable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  /// A rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// Whether the cell at `(column, row)` lies inside.
  public func contains(column: Int, row: Int) -> Bool {
    column >= x && column < x + width && row >= y && row < y + height
  }

  /// The rectangle shrunk by `amount` cells on every side.
  func inset(_ amount: Int) -> Rect {
    Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
  }
}
