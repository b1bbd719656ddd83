import TagscopeRecording
import TagscopeTimeline

/// Whether records stream in live or come from a recording.
public enum Mode: Sendable, Hashable {
  /// The demo hub or `listen`: records keep arriving; the list follows the tail until you move up.
  case live
  /// A recording: stopped at the first record, played back at recorded speed on `space`.
  case replay
}

/// The scrollable full view of one record, or the coverage checklist.
public struct Detail: Sendable, Hashable {
  /// The record's position in the timeline.
  public var index: Int
  /// Pretty JSON (or checklist items), one sanitized line per entry; empty until loaded.
  public var lines: [SafeText]
  /// First line shown.
  public var scroll: Int
  /// The box title when the lines are not a record (the coverage checklist).
  public var heading: SafeText? = nil
  /// The record's number (its position in the merged stream) and name, for the title.
  public var seq: UInt64 = 0
  public var name = ""
  /// The checklist: each line's filter (listing the records that cover it) and the line under
  /// the cursor, which `enter` applies.
  public var filters: [String?] = []
  public var cursor: Int? = nil
}

/// The selected record as loaded: plan findings merged into its outputs and issues, and the app's
/// state as of it.
public struct Selection: Sendable, Hashable {
  /// Its timeline index.
  public var index: Int
  public var record: Record
  /// Screens, session, timers and consent as of the record.
  public var state: TimelineState
  /// The delivery of its provider calls, when a delivery ledger follows the records (`nil`: none
  /// does, and the Providers pane shows no delivery words).
  public var deliveries: [CallDelivery]?

  /// A selection.
  public init(index: Int, record: Record, state: TimelineState, deliveries: [CallDelivery]? = nil) {
    self.index = index
    self.record = record
    self.state = state
    self.deliveries = deliveries
  }
}

/// What the rate and sparkline are computed for: the records before `end`, anchored at the last
/// one's time plus `extraSeconds` (live: wall time since records last arrived).
public struct ActivityRequest: Sendable, Hashable {
  public var end: Int
  public var extraSeconds: Double
}

/// The header's rate (records a second over the last 10 s) and 12 five-second buckets.
public struct Activity: Sendable, Hashable {
  /// What it was computed for.
  public var request: ActivityRequest
  public var rate: Double
  public var buckets: [Int]
}

/// What is drawn over the panes.
public enum Overlay: Sendable, Hashable {
  case none
  /// The key reference and the legend of the marks, scrolled to this line.
  case help(scroll: Int)
  /// A record's full JSON.
  case detail(Detail)
  /// Filter text being typed after `/`.
  case filter(String)
  /// A record number or time being typed after `:`.
  case jump(String)
  /// The file name being typed for an export (`e`, `E`).
  case export(ExportPrompt)
  /// Every source with its counts and connection (`S`).
  case sources(SourcesView)
  /// The selected record's violated expectations, expected beside got (`v`).
  case comparison(ComparisonView)
  /// A plan entry drafted for the selected record's unplanned tag (`a`).
  case planEntry(PlanEntryView)
  /// The marked record beside the selected one (`m`, then `d`).
  case pair(RecordPairView)
}

/// Everything the UI shows, as one value: ``update(_:_:)`` changes it, ``render(_:size:)`` draws
/// it from nothing else, so the same state always draws the same frame.
///
/// What it shows of the timeline (rows on screen, the selected record, the state as of it, the
/// header facts) arrives as messages from the effects ``update(_:_:)`` asks for.
public struct State: Sendable {
  public var mode: Mode
  /// Records seen so far (a prefix of the timeline).
  public internal(set) var known = 0
  /// The applied filter's text (empty: none).
  public internal(set) var filterText = ""
  /// Filters applied with `enter` in the prompt, oldest first, without repeats (at most
  /// ``filterHistoryLimit``); `↑`/`↓` in the prompt walk them.
  public internal(set) var filterHistory: [String] = []
  /// Where `↑`/`↓` are in ``filterHistory`` while the prompt is open; `nil` for the text typed.
  var filterHistoryPosition: Int?
  /// What was typed before walking the history, given back by `↓` past the newest.
  var filterDraft = ""
  /// Filters kept in the history at most.
  static let filterHistoryLimit = 50
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
  /// The record `m` marked (a timeline index), compared with the selected one by `d`.
  public internal(set) var markedIndex: Int?
  /// Text the event loop is to put on the terminal's clipboard (OSC 52) after the next frame.
  public internal(set) var clipboard: String?
  /// Header facts (``Msg/info(_:)``).
  public internal(set) var info = SourceInfo()
  /// Summaries of the rows on screen, the last visible row and the first record, by timeline index.
  public internal(set) var rows: [Int: RecordSummary] = [:]
  /// The selected record as loaded.
  public internal(set) var selection: Selection?
  /// Rate and sparkline.
  public internal(set) var activity: Activity?
  /// The widest record name loaded so far, in columns: the Events pane grows to it (never
  /// shrinks, so the layout does not jump while scrolling).
  public internal(set) var widestName = 0
  /// Times of visible records from a position on, for playback.
  var times: (from: Int, values: [Double])?
  /// Where `matches` has been computed up to (timeline records before it were filtered).
  var filteredThrough = 0
  /// The timeline index selected when the filter was applied (kept selected when it matches).
  var filterAnchor: Int?

  /// A state: live states follow the tail, replays stop at the first record.
  public init(mode: Mode, size: Size, now: Double = 0) {
    self.mode = mode
    self.size = size
    self.now = now
    following = mode == .live
    lastArrival = now
  }

  /// Shows `text` (sanitized) in the footer until the next key.
  public mutating func show(notice text: String) { notice = Sanitizer.clean(text) }

  /// The layout for the current size and zoom.
  public var layout: Layout { Layout(size: size, zoomed: zoomed ? focus : nil, eventsWidth: eventsWidth) }

  /// Columns the Events rows want: sequence, time, glyph, the widest name seen (at most
  /// ``State/nameColumns``), violation marks and one status mark per provider.
  public var eventsWidth: Int {
    let seqDigits = max(4, String(known).count)
    let marks = min(info.providers.count, FrameView.maximumStatusMarks)
    return seqDigits + 1 + 13 + sourceLabelWidth + 2 + min(max(widestName, 12), Self.nameColumns) + 4
      + (marks > 0 ? marks + 1 : 0)
  }

  /// The most columns a name takes in the Events list; longer names end in `…` (the Providers
  /// title and the detail show them whole).
  public static let nameColumns = 28

  /// Rows in the visible (filtered) list.
  public var visibleCount: Int { matches?.count ?? known }

  /// The timeline index of the visible row at `position`.
  public func index(atPosition position: Int) -> Int { matches?[position] ?? position }

  /// The selected record's timeline index, if any.
  public var selectedIndex: Int? {
    guard visibleCount > 0 else { return nil }
    return index(atPosition: min(cursor, visibleCount - 1))
  }

  /// The loaded selection, when it is the selected record's.
  public var selected: Selection? {
    guard let selection, selection.index == selectedIndex else { return nil }
    return selection
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
