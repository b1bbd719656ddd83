/// Whether records stream in live or come from a recording.
public enum Mode: Sendable, Hashable {
  /// The demo hub or `listen`: records keep arriving; the list follows the tail until you move up.
  case live
  /// A recording: stopped at the first record, played back at recorded speed on `space`.
  case replay
}

/// The scrollable full view of one record.
public struct Detail: Sendable, Hashable {
  /// The record's position in the timeline.
  public var index: Int
  /// Pretty JSON, one sanitized line per entry.
  public var lines: [SafeText]
  /// First line shown.
  public var scroll: Int
  /// The box title when the lines are not a record (the coverage checklist).
  public var heading: SafeText? = nil
}

/// What is drawn over the panes.
public enum Overlay: Sendable, Hashable {
  case none
  /// The key reference.
  case help
  /// A record's full JSON.
  case detail(Detail)
  /// Filter text being typed after `/`.
  case filter(String)
  /// A record number or time being typed after `:`.
  case jump(String)
}

/// Everything the UI shows, as one value: `update` changes it, `render` draws it.
///
/// The timeline is append-only; ``known`` is how many of its records the state has seen, so a render
/// of the same state always draws the same frame.
public struct State: Sendable {
  /// The records.
  public let timeline: any TimelineSource
  public var mode: Mode
  /// Records seen so far (a prefix of the timeline).
  public internal(set) var known = 0
  /// The applied filter's text (empty: none).
  public internal(set) var filterText = ""
  public internal(set) var filter: Filter?
  /// Positions (timeline indices) of the records matching ``filter``, ascending; `nil` without filter.
  public internal(set) var matches: [Int]?
  /// The selected row, as a position in the visible list.
  public internal(set) var cursor = 0
  /// The first row shown in the Events pane.
  public internal(set) var top = 0
  /// Live mode: the selection follows the newest record (LIVE); moving up pauses (PAUSED).
  public internal(set) var following: Bool
  /// Replay mode: playing back at recorded speed.
  public internal(set) var playing = false
  /// Replay speed factor.
  public internal(set) var speed: Double = 1
  /// Recorded seconds owed to playback since the last step.
  var playBudget: Double = 0
  var lastTick: Double?
  /// Wall time when records last arrived (live rate decay).
  var lastArrival: Double = 0
  public internal(set) var focus: Pane = .events
  public internal(set) var zoomed = false
  public internal(set) var overlay: Overlay = .none
  /// Scroll offsets of the Screens, Session and Providers panes (indexed by pane).
  public internal(set) var scroll = [0, 0, 0, 0]
  /// The first provider column shown when they do not all fit.
  public internal(set) var providerOffset = 0
  public internal(set) var size: Size
  /// Wall clock, seconds since 1970, from the last tick.
  public internal(set) var now: Double
  /// Set by `q`: the event loop ends.
  public internal(set) var shouldQuit = false
  /// A one-line message shown in the footer until the next key.
  public internal(set) var notice: SafeText?

  /// A state over `timeline`: live states follow the tail, replays stop at the first record.
  public init(timeline: any TimelineSource, mode: Mode, size: Size, now: Double = 0) {
    self.timeline = timeline
    self.mode = mode
    self.size = size
    self.now = now
    following = mode == .live
    lastArrival = now
  }

  /// Shows `text` (sanitized) in the footer until the next key.
  public mutating func show(notice text: String) { notice = Sanitizer.clean(text) }

  /// The layout for the current size and zoom.
  public var layout: Layout { Layout(size: size, zoomed: zoomed ? focus : nil) }

  /// Rows in the visible (filtered) list.
  public var visibleCount: Int { matches?.count ?? known }

  /// The timeline index of the visible row at `position`.
  public func index(atPosition position: Int) -> Int { matches?[position] ?? position }

  /// The selected record's timeline index, if any.
  public var selectedIndex: Int? {
    guard visibleCount > 0 else { return nil }
    return index(atPosition: min(cursor, visibleCount - 1))
  }

  /// The header's mode word: LIVE, PAUSED or REPLAY.
  public var modeWord: String {
    switch mode {
    case .live: return following ? "LIVE" : "PAUSED"
    case .replay: return "REPLAY"
    }
  }

  /// Rows of the Events list on screen.
  var eventRows: Int {
    max(1, Layout(size: size, zoomed: zoomed && focus == .events ? .events : nil).content(.events).height)
  }
}
