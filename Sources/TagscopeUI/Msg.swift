/// A key press, decoded by the backend.
public enum Key: Sendable, Hashable {
  case character(Character)
  case up
  case down
  case left
  case right
  case pageUp
  case pageDown
  case home
  case end
  case enter
  case escape
  case tab
  case backTab
  case backspace
  case delete
}

/// A mouse action at a cell.
public struct MouseEvent: Sendable, Hashable {
  /// What the mouse did.
  public enum Action: Sendable, Hashable {
    case press
    case wheelUp
    case wheelDown
  }

  public var action: Action
  public var column: Int
  public var row: Int

  /// A mouse event.
  public init(action: Action, column: Int, row: Int) {
    self.action = action
    self.column = column
    self.row = row
  }
}

/// Everything that changes the UI's ``State``.
public enum Msg: Sendable, Hashable {
  /// A key was pressed.
  case key(Key)
  /// Time passed: `now` in seconds since 1970 (drives replay playback and the live rate).
  case tick(now: Double)
  /// The timeline now holds `count` records.
  case recordsArrived(count: Int)
  /// The terminal was resized.
  case resize(Size)
  /// A mouse click or wheel turn.
  case mouse(MouseEvent)
}
