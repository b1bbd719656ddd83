import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline

/// What ``update(_:_:)`` asks the timeline for. Effects run off the render path (the event loop,
/// or a test) and come back as messages, so ``update(_:_:)`` and ``render(_:size:)`` only read the
/// state.
public enum Effect: Sendable, Hashable {
  /// Summaries of these timeline indices → ``Msg/rowsLoaded(_:)``.
  case loadRows([Int])
  /// The record at this index, its plan findings and the state as of it →
  /// ``Msg/selectionLoaded(_:)``.
  case loadSelection(Int)
  /// A record's pretty JSON → ``Msg/detailLoaded(index:seq:name:lines:)``.
  case loadDetail(Int)
  /// The coverage checklist → ``Msg/checklistLoaded(_:)``.
  case loadChecklist
  /// The record's violated expectations → ``Msg/comparisonsLoaded(index:seq:name:_:)``.
  case loadComparisons(Int)
  /// The records in `range` passing the filter → ``Msg/filtered(text:matches:range:)``.
  case filter(text: String, Filter, range: Range<Int>)
  /// The nearest record with violations after (or before) timeline index `from`, among `within`
  /// (the filter's matches) when given → ``Msg/violationFound(position:forward:)``.
  case findViolation(from: Int, forward: Bool, within: [Int]?)
  /// The first visible position at or after `time` (or the last before it) →
  /// ``Msg/timeFound(position:)``. With `from` (a visible position), only positions after it
  /// (rounding up) or before it are candidates, so a seek moves in its direction even where the
  /// recording's times go backwards.
  case findTime(Double, roundingUp: Bool, from: Int? = nil, within: [Int]?)
  /// Times of up to ``Effect/timesWindow`` visible records from position `from` →
  /// ``Msg/timesLoaded(from:times:)``.
  case loadTimes(from: Int, within: [Int]?)
  /// The rate and sparkline for `request` → ``Msg/activityLoaded(_:)``.
  case loadActivity(ActivityRequest)
  /// Every source's counts and connection → ``Msg/sourcesLoaded(_:count:)``.
  case loadSources
  /// The header facts and the record count now → ``Msg/info(_:)`` then
  /// ``Msg/recordsArrived(count:)``: what the event loop asks for when the source says it changed.
  case loadInfo
  /// Writes the records of `scope` to a new recording at `path`, personal data replaced by salted
  /// hashes when `redacted` (``Redactor``) → ``Msg/exported(path:count:error:redacted:)``.
  case export(ExportScope, path: String, redacted: Bool = false)
  /// Drafts the plan entry of the record's tag from its records →
  /// ``Msg/planEntryDrafted(index:_:)``.
  case draftPlanEntry(Int)
  /// Adds a previewed entry to the plan file → ``Msg/planEntryAdded(_:)``.
  case addPlanEntry(PlanEntryPreview)
  /// The record's JSON line, for the clipboard, and where a copy can go now →
  /// ``Msg/copyReady(seq:json:route:)``.
  case copyRecord(Int)
  /// Puts a record's JSON into tmux's paste buffer (`tmux load-buffer`), where tmux's
  /// `set-clipboard` `setting` keeps OSC 52 from the clipboard →
  /// ``Msg/tmuxBufferLoaded(seq:bytes:setting:error:)``.
  case copyToTmuxBuffer(seq: UInt64, json: String, setting: String)
  /// Two records' fields side by side → ``Msg/pairLoaded(left:right:titles:rows:)``.
  case loadPair(Int, Int)

  /// How many record times one ``loadTimes(from:within:)`` reads.
  public static let timesWindow = 512
}

/// Runs effects against a ``TimelineSource`` and returns the messages they produce.
public struct EffectRunner: Sendable {
  /// The timeline read.
  public let source: any TimelineSource
  /// Where `y`'s copy can go, asked at each copy (tmux's `set-clipboard` may change meanwhile).
  public let clipboardRoute: @Sendable () -> ClipboardRoute

  /// A runner over `source`; `clipboardRoute` is ``ClipboardRoute/current()`` in a terminal,
  /// the plain terminal by default.
  public init(
    source: any TimelineSource, clipboardRoute: @escaping @Sendable () -> ClipboardRoute = { .terminal }
  ) {
    self.source = source
    self.clipboardRoute = clipboardRoute
  }

  /// Runs `effect`.
  public func run(_ effect: Effect) -> [Msg] {
    switch effect {
    case .loadRows(let indices): return [.rowsLoaded(rows(indices))]
    case .loadSelection(let index): return [.selectionLoaded(selection(index))]
    case .loadDetail(let index): return [detail(index)]
    case .loadChecklist: return [.checklistLoaded(source.planChecklist())]
    case .loadComparisons(let index):
      let record = selection(index).record
      return [
        .comparisonsLoaded(
          index: index, seq: Format.number(index), name: record.name, source.comparisons(at: index))
      ]
    case .filter(let text, let filter, let range):
      return [.filtered(text: text, matches: matches(filter, in: range), range: range)]
    case .findViolation(let from, let forward, let within):
      if let found = violation(from: from, forward: forward, within: within) {
        return [.violationFound(position: found, forward: forward)]
      }
      // None that way (`]` at the live tail): the newest (oldest) one, unless it is the selection.
      let edge = forward ? source.count : -1
      guard let turned = violation(from: edge, forward: !forward, within: within),
        (within?[turned] ?? turned) != from
      else { return [.violationFound(position: nil, forward: forward)] }
      return [.violationFound(position: turned, forward: forward, turned: true)]
    case .findTime(let time, let roundingUp, let from, let within):
      return [
        .timeFound(position: position(atTime: time, roundingUp: roundingUp, from: from, within: within))
      ]
    case .loadTimes(let from, let within):
      return [.timesLoaded(from: from, times: times(from: from, within: within))]
    case .loadActivity(let request): return [.activityLoaded(activity(request))]
    case .export(let scope, let path, let redacted): return [export(scope, to: path, redacted: redacted)]
    case .draftPlanEntry(let index):
      return [.planEntryDrafted(index: index, source.draftPlanEntry(at: index))]
    case .addPlanEntry(let preview): return [.planEntryAdded(source.addPlanEntry(preview))]
    case .loadPair(let left, let right):
      let (first, second) = (selection(left).record, selection(right).record)
      return [
        .pairLoaded(
          left: left, right: right,
          titles: ["#\(Format.number(left)) \(first.name)", "#\(Format.number(right)) \(second.name)"],
          rows: RecordPairView.rows(first, second))
      ]
    case .copyRecord(let index):
      let record = selection(index).record
      return [
        .copyReady(seq: Format.number(index), json: RecordLineEncoder.line(record), route: clipboardRoute())
      ]
    case .copyToTmuxBuffer(let seq, let json, let setting):
      return [
        .tmuxBufferLoaded(
          seq: seq, bytes: json.utf8.count, setting: setting, error: TmuxCommand.loadBuffer(json))
      ]
    case .loadSources: return [.sourcesLoaded(source.sourceOverview(), count: source.count)]
    // The facts (loading among them) before the count: when loading was over, that count is final.
    case .loadInfo: return [.info(source.info), .recordsArrived(count: source.count)]
    }
  }

  /// Writes an export (an HTML session for a `.html` name, else a recording), redacted with a
  /// random salt when asked; a relative path is taken from the working directory and reported whole.
  private func export(_ scope: ExportScope, to path: String, redacted: Bool) -> Msg {
    let indices: [Int]
    switch scope {
    case .record(let index): indices = [index]
    case .records(let matches): indices = matches
    case .all(let count): indices = Array(0..<count)
    }
    let full =
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let salt = redacted ? Redactor.randomSalt() : nil
    if ExportPrompt.isHTMLSession(full) {
      do {
        let count = try SessionPage.write(
          from: source, positions: indices, to: full, replacing: false, redactingWith: salt)
        return .exported(path: full, count: count, error: nil, redacted: redacted)
      } catch { return .exported(path: full, count: 0, error: error.description) }
    }
    switch salt.map({ source.export(indices, to: full, redactingWith: $0) })
      ?? source.export(indices, to: full)
    {
    case .success(let count): return .exported(path: full, count: count, error: nil, redacted: redacted)
    case .failure(let error): return .exported(path: full, count: 0, error: error.description)
    }
  }

  /// The records in `range` passing `filter`: the timeline's index first; then, for the terms the
  /// index cannot answer (`screen:`, `call:`, `prop.`, `param.`, `rule:`, `has:violations:PROVIDER`),
  /// the records it let through, read once each (their context, properties and calls, the hub's
  /// violations on their outputs, the plan's findings).
  private func matches(_ filter: Filter, in range: Range<Int>) -> [Int] {
    let candidates = source.filter(filter.timeline, in: range)
    guard filter.checksRecords else { return candidates }
    // One look at the ledger for the whole run: its states as of now.
    let deliveries = filter.deliveryStates.isEmpty ? [:] : source.deliveryStates() ?? [:]
    return candidates.filter { index in
      guard filter.acceptsDeliveries(deliveries[index] ?? []) else { return false }
      guard case .success(let record) = source.record(at: index) else { return false }
      let findings =
        filter.checksViolations ? source.findings(at: index).map { ($0.violation.rule, $0.provider) } : []
      return filter.acceptsRecord(record, planFindings: findings)
    }
  }

  /// Summaries of `indices`, each contiguous run read in one call (the rows on screen are one).
  private func rows(_ indices: [Int]) -> [RecordSummary] {
    var summaries: [RecordSummary] = []
    var runStart: Int?
    var previous = Int.min
    for index in indices.sorted() where index != previous {
      if index != previous + 1, let start = runStart {
        summaries += source.summaries(in: start..<(previous + 1))
        runStart = nil
      }
      if runStart == nil { runStart = index }
      previous = index
    }
    if let start = runStart { summaries += source.summaries(in: start..<(previous + 1)) }
    return summaries
  }

  private func time(_ index: Int) -> Double { source.time(at: index) ?? 0 }

  /// The selected record with its plan findings merged in (on its provider's output, or as an
  /// issue), and the state as of it; a record that cannot be read shows as an `error` record.
  private func selection(_ index: Int) -> Selection {
    var record: Record
    switch source.record(at: index) {
    case .success(let read): record = read
    case .failure(let error):
      record = Record(
        seq: 0, time: Date(recordMilliseconds: ISO8601Timestamp.milliseconds(seconds: time(index))),
        kind: "error",
        name: error.description)
    }
    for finding in source.findings(at: index) {
      if let provider = finding.provider,
        let output = record.outputs.firstIndex(where: { $0.provider == provider })
      {
        record.outputs[output].violations.append(finding.violation)
      } else {
        record.issues.append(
          RecordIssue(code: PlanFinding.issueCode, message: "plan: " + finding.violation.message))
      }
    }
    return Selection(
      index: index, record: record, state: source.state(at: index) ?? TimelineState(),
      deliveries: source.deliveries(at: index))
  }

  private func detail(_ index: Int) -> Msg {
    let record = selection(index).record
    let json = RecordLineEncoder.pretty(record, escaping: Sanitizer.isUnsafe)
    let lines = json.split(separator: "\n", omittingEmptySubsequences: false).map {
      Sanitizer.clean(String($0), limit: 100_000)
    }
    return .detailLoaded(index: index, seq: Format.number(index), name: record.name, lines: lines)
  }

  private func violation(from index: Int, forward: Bool, within matches: [Int]?) -> Int? {
    var candidate = index
    while true {
      guard
        let found = forward
          ? source.nextViolation(after: candidate) : source.previousViolation(before: candidate)
      else { return nil }
      guard let matches else { return found }
      let position = Positions.lowerBound(of: found, in: matches)
      if position < matches.count && matches[position] == found { return position }
      candidate = found
    }
  }

  /// Records a directed seek reads one by one before it falls back to a binary search (which
  /// assumes times ascend): within them, a seek lands on the nearest record in file order that
  /// crosses the target time, however the recording's times go.
  public static let seekScan = 4096

  private func position(atTime time: Double, roundingUp: Bool, from: Int?, within matches: [Int]?) -> Int {
    let count = matches?.count ?? source.count
    func timeAt(_ position: Int) -> Double { self.time(matches?[position] ?? position) }
    // The candidates: every position, or those strictly on the seek's side of `from`, nearest first.
    var first = 0
    var end = count
    if let from, from >= 0, from < count {
      if roundingUp {
        first = from + 1
        guard first < end else { return from }
        let scanned = min(end, first + Self.seekScan)
        for position in first..<scanned where timeAt(position) >= time { return position }
        if scanned == end { return end - 1 }
        first = scanned
      } else {
        end = from
        guard first < end else { return from }
        let scanned = max(first, end - Self.seekScan)
        for position in (scanned..<end).reversed() where timeAt(position) <= time { return position }
        if scanned == first { return first }
        end = scanned
      }
    }
    var low = first
    var high = end
    while low < high {
      let mid = (low + high) / 2
      if timeAt(mid) < time { low = mid + 1 } else { high = mid }
    }
    if !roundingUp && low < end && timeAt(low) > time { return max(first, low - 1) }
    return min(low, max(first, end - 1))
  }

  private func times(from position: Int, within matches: [Int]?) -> [Double] {
    if let matches {
      let end = min(matches.count, position + Effect.timesWindow)
      guard position < end else { return [] }
      return matches[position..<end].map(time)
    }
    return source.summaries(in: position..<(position + Effect.timesWindow)).map(\.seconds)
  }

  /// The rate over the last 10 s (or less at the start) and 12 five-second buckets of the last
  /// minute, ending at the request's anchor.
  private func activity(_ request: ActivityRequest) -> Activity {
    let end = request.end
    guard end > 0 else { return Activity(request: request, rate: 0, buckets: []) }
    let anchor = time(end - 1) + request.extraSeconds
    func firstIndex(after limit: Double) -> Int {
      var low = 0
      var high = end
      while low < high {
        let mid = (low + high) / 2
        if time(mid) <= limit { low = mid + 1 } else { high = mid }
      }
      return low
    }
    var buckets: [Int] = []
    var previous = firstIndex(after: anchor - 60)
    for bucket in 1...12 {
      let next = firstIndex(after: anchor - 60 + Double(bucket) * 5)
      buckets.append(next - previous)
      previous = next
    }
    // Over the last 10 s, or since the first record when there is less history.
    let window = max(1, min(10, anchor - time(0)))
    let recent = end - firstIndex(after: anchor - window)
    return Activity(request: request, rate: Double(recent) / window, buckets: buckets)
  }
}

/// Binary searches over ascending positions.
enum Positions {
  /// The first position in `sorted` whose value is not below `value`.
  static func lowerBound(of value: Int, in sorted: [Int]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let mid = (low + high) / 2
      if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
