import TagscopeRecording
import TagscopeTimeline

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
  /// A control key: `.control("u")` is Ctrl-U (clears a text input), `.control("w")` Ctrl-W
  /// (deletes its last word).
  case control(Character)
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

/// Everything that changes the UI's ``State``: input, time, and what effects read from the
/// timeline.
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
  /// The header facts changed (plan results, sources, drops, loading).
  case info(SourceInfo)
  /// Summaries of rows asked for with ``Effect/loadRows(_:)``.
  case rowsLoaded([RecordSummary])
  /// The selected record and the state as of it (``Effect/loadSelection(_:)``).
  case selectionLoaded(Selection)
  /// A record's detail lines (``Effect/loadDetail(_:)``); `seq` is its number in the merged stream.
  case detailLoaded(index: Int, seq: UInt64, name: String, lines: [SafeText])
  /// The coverage checklist (``Effect/loadChecklist``).
  case checklistLoaded([ChecklistItem])
  /// A record's violated expectations (``Effect/loadComparisons(_:)``).
  case comparisonsLoaded(index: Int, seq: UInt64, name: String, [Comparison])
  /// The records in `range` passing the filter `text` (``Effect/filter(text:_:range:)``).
  case filtered(text: String, matches: [Int], range: Range<Int>)
  /// The nearest record with violations (``Effect/findViolation(from:forward:within:)``), as a
  /// position in the visible list; `nil` when there is none. With `turned`, there was none in that
  /// direction and `position` is the newest (`]`) or oldest (`[`) one, on the other side.
  case violationFound(position: Int?, forward: Bool, turned: Bool = false)
  /// The visible position for a time (``Effect/findTime(_:roundingUp:within:)``).
  case timeFound(position: Int)
  /// Times of the visible records from `from` on (``Effect/loadTimes(from:within:)``).
  case timesLoaded(from: Int, times: [Double])
  /// The rate and sparkline (``Effect/loadActivity(_:)``).
  case activityLoaded(Activity)
  /// The Sources view's rows, loaded when the timeline held `count` records (``Effect/loadSources``).
  case sourcesLoaded([SourceOverview], count: Int)
  /// An export was written (`count` records), or failed with `error` (``Effect/export(_:path:)``).
  case exported(path: String, count: Int, error: String?, redacted: Bool = false)
  /// The plan entry drafted for the tag of the record at `index`, or why not
  /// (``Effect/draftPlanEntry(_:)``).
  case planEntryDrafted(index: Int, Result<PlanEntryPreview, PlanEntryFailure>)
  /// A drafted entry was added to the plan file (the message says where), or why not.
  case planEntryAdded(Result<String, PlanEntryFailure>)
  /// A record's JSON, ready for the clipboard (``Effect/copyRecord(_:)``), with its number and
  /// where a copy can go.
  case copyReady(seq: UInt64, json: String, route: ClipboardRoute = .terminal)
  /// tmux took a record's JSON into its paste buffer, or refused with `error`
  /// (``Effect/copyToTmuxBuffer(seq:json:setting:)``).
  case tmuxBufferLoaded(seq: UInt64, bytes: Int, setting: String, error: String?)
  /// The event loop wrote the clipboard request to the terminal.
  case clipboardWritten
  /// Two records' fields side by side (``Effect/loadPair(_:_:)``): their titles, then the rows.
  case pairLoaded(left: Int, right: Int, titles: [String], rows: [RecordPairView.Row])
}
