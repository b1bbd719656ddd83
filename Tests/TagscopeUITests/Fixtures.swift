import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTimeline
import TagscopeUI

/// A real live ``Timeline`` (in a temporary file) behind the debugger, so the tests read records
/// the way the app does: the timeline's own filter, violation navigation and state folds.
final class FixtureStore: @unchecked Sendable {
  let timeline: Timeline
  let plan = FixturePlan()
  let delivery = FixtureDelivery()
  let source: InspectorTimelineSource

  init(_ records: [Record] = [], sourceLabel: String = "test fixture") {
    timeline = try! Timeline.live(header: RecordingHeader(app: "Podcasts", started: Date()))
    source = InspectorTimelineSource(
      timeline: timeline, sourceLabel: sourceLabel, plan: plan, delivery: delivery)
    append(contentsOf: records)
  }

  /// The file goes; the timeline (still read by sessions that outlive the store) keeps it open.
  deinit { try? FileManager.default.removeItem(at: timeline.url) }

  var count: Int { timeline.count }

  func append(_ record: Record) { append(contentsOf: [record]) }

  func append<Records: Sequence>(contentsOf records: Records) where Records.Element == Record {
    timeline.receive(records.map(SinkItem.init))
  }
}

/// A delivery ledger's states set by hand, by position.
final class FixtureDelivery: DeliveryFeed, @unchecked Sendable {
  private let lock = NSLock()
  private var states: [Int: [String]] = [:]

  private var calls: [Int: [CallDelivery]] = [:]

  func set(_ states: [String], at position: Int) { lock.withLock { self.states[position] = states } }

  /// Sets the calls of the record at `position`, and their states for the filter.
  func set(calls: [CallDelivery], at position: Int) {
    lock.withLock {
      self.calls[position] = calls
      states[position] = calls.map(\.state)
    }
  }

  func statesByPosition() -> [Int: [String]] { lock.withLock { states } }

  func calls(at position: Int) -> [CallDelivery] { lock.withLock { calls[position] ?? [] } }

  func fingerprint() -> String { lock.withLock { "\(calls.values.flatMap { $0 }.map(\.state).sorted())" } }
}

/// Plan results set by hand: the header line, the checklist, findings per record.
final class FixturePlan: PlanFeed, @unchecked Sendable {
  private let lock = NSLock()
  private var summary: String?
  private var items: [ChecklistItem] = []
  private var compared: [Int: [Comparison]] = [:]
  private var found: [Int: [PlanFinding]] = [:]

  var headerText: String { lock.withLock { summary ?? "" } }
  /// What follows the coverage in the summary (`3 errors, 1 warning`), as the plan monitor words it.
  var errorsText: String {
    lock.withLock {
      summary.map { $0.components(separatedBy: ", ").dropFirst().joined(separator: ", ") } ?? ""
    }
  }
  var isLoaded: Bool { lock.withLock { summary != nil } }

  func set(summary: String?, checklist: [String] = []) {
    set(summary: summary, items: checklist.map { ChecklistItem(text: $0) })
  }

  func set(summary: String?, items: [ChecklistItem]) {
    lock.withLock {
      self.summary = summary
      self.items = items
    }
  }

  func set(_ comparisons: [Comparison], at index: Int) { lock.withLock { compared[index] = comparisons } }

  func add(_ finding: PlanFinding, at index: Int) {
    lock.withLock { found[index, default: []].append(finding) }
  }

  func findings(at index: Int) -> [PlanFinding] { lock.withLock { found[index] ?? [] } }
  func checklist() -> [ChecklistItem] { lock.withLock { items } }
  func comparisons(at index: Int) -> [Comparison] { lock.withLock { compared[index] ?? [] } }

  /// What `a` previews (by the drafted tag's records) and what `y` added.
  private var drafts: [String: PlanEntryPreview] = [:]
  private(set) var added: [PlanEntryPreview] = []

  func set(draft: PlanEntryPreview) { lock.withLock { drafts[draft.name] = draft } }

  func draftEntry(from records: [Record]) -> Result<PlanEntryPreview, PlanEntryFailure> {
    guard let name = records.first?.name, let draft = lock.withLock({ drafts[name] }) else {
      return .failure(PlanEntryFailure("already planned"))
    }
    var counted = draft
    counted.records = records.count
    return .success(counted)
  }

  func addEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure> {
    lock.withLock { added.append(preview) }
    return .success("added \(preview.label) to \(preview.planFile):42")
  }
}

/// Deterministic records of the podcast app for reducer and render tests.
enum Fixtures {
  static let start = 1_795_255_200.0  // 2026-11-21T10:00:00Z

  static func session(authenticated: Bool) -> RecordSession {
    RecordSession(
      id: "s-1", state: authenticated ? "authenticated" : "unauthenticated",
      user: authenticated ? "u-42" : nil,
      properties: ["voiceOver": .bool(authenticated), "textSize": "large"])
  }

  static func context(_ history: [String], authenticated: Bool = false, timers: [String] = [])
    -> RecordContext
  {
    RecordContext(
      screen: history.last, history: history, session: session(authenticated: authenticated),
      timedEvents: timers)
  }

  static func firebase(_ name: String, _ parameters: Properties, violations: [RecordViolation] = [])
    -> ProviderOutput
  {
    ProviderOutput(
      provider: "firebase", status: .sent,
      calls: [CallDescription(method: "logEvent", name: name, parameters: parameters)], violations: violations
    )
  }

  static func record(
    _ seq: Int, _ offset: Double, _ kind: RecordKind, _ name: String, _ properties: Properties = [:],
    _ context: RecordContext = RecordContext(), _ outputs: [ProviderOutput] = [], issues: [String] = [],
    source: String? = nil
  ) -> Record {
    Record(
      seq: UInt64(seq), time: Date(timeIntervalSince1970: start + offset), kind: kind, name: name,
      properties: properties, context: context, outputs: outputs,
      issues: issues.map { RecordIssue(code: "test", message: $0) }, source: source)
  }

  /// Twelve records: a session, screens, plays, a consent change blocking braze, a failure, a
  /// violation, a timed event.
  static func podcastRecords() -> [Record] {
    let play: Properties = ["podcast_title": "Swift by Sundell", "podcast_duration": 1830]
    let amplitudePlay = ProviderOutput(
      provider: "amplitude", status: .sent,
      calls: [CallDescription(method: "track", name: "Play Podcast", parameters: play)])
    let pianoDropped = ProviderOutput(provider: "piano", status: .dropped)
    let brazeSent = ProviderOutput(
      provider: "braze", status: .sent, calls: [CallDescription(method: "logCustomEvent", name: "play")])
    let brazeBlocked = ProviderOutput(provider: "braze", status: .blocked, reason: "consent")
    var records: [Record] = []
    func add(
      _ offset: Double, _ kind: RecordKind, _ name: String, _ properties: Properties = [:],
      _ context: RecordContext, _ outputs: [ProviderOutput] = [], issues: [String] = []
    ) {
      records.append(
        record(records.count + 1, offset, kind, name, properties, context, outputs, issues: issues))
    }
    add(0, .sessionStart, "sessionStart", [:], context([]))
    add(0.4, .timedStart, "onboarding", [:], context([], timers: ["onboarding"]))
    add(
      1.2, .screen, "podcasts", [:], context(["podcasts"], timers: ["onboarding"]),
      [firebase("screen_view", ["screen_name": "show_podcasts"]), pianoDropped])
    add(
      3.5, .userAction, "playPodcast", play, context(["podcasts"], timers: ["onboarding"]),
      [firebase("play_podcast_from_podcasts", play), amplitudePlay, pianoDropped, brazeSent])
    add(4.0, .timedStop, "onboarding", [:], context(["podcasts"]))
    add(
      6.1, .screen, "podcastPlayer", [:], context(["podcasts", "podcastPlayer"]),
      [firebase("screen_view", ["screen_name": "player"]), pianoDropped])
    add(
      8.0, .consent, "consent", ["scope": "provider:braze", "granted": false],
      context(["podcasts", "podcastPlayer"]))
    add(
      9.5, .userAction, "favoritePodcast", ["podcast_title": "Radiolab"],
      context(["podcasts", "podcastPlayer"]),
      [
        firebase("favorite_podcast", ["podcast_title": "Radiolab"]), amplitudePlay, pianoDropped,
        brazeBlocked,
      ])
    add(
      12.25, .event, "playerDidFail", ["error": "network"], context(["podcasts", "podcastPlayer"]),
      [
        ProviderOutput(provider: "firebase", status: .failed, reason: "adapter threw: quota exceeded"),
        pianoDropped, brazeBlocked,
      ], issues: ["timed event \"download\" was not started"])
    add(
      15.0, .sessionUpdate, "login", [:], context(["podcasts", "podcastPlayer"], authenticated: true))
    add(
      18.75, .userAction, "downloadPodcastWithAVeryLongName", ["podcast_title": "Hardcore History"],
      context(["podcasts", "podcastPlayer", "favorites"], authenticated: true),
      [
        firebase(
          "download_podcast_with_a_very_long_event_name_over_forty", ["podcast_title": "Hardcore History"],
          violations: [
            RecordViolation(
              rule: "firebase.event-name-length",
              message: "event name is 55 characters; Firebase allows 40 and logs firebase_error 2",
              consequence: "replaced", callIndex: 0)
          ]), pianoDropped, brazeBlocked,
      ])
    add(
      20.0, .screen, "favorites", [:],
      context(["podcasts", "podcastPlayer", "favorites"], authenticated: true),
      [firebase("screen_view", ["screen_name": "favorites"]), pianoDropped])
    return records
  }

  static func store(_ records: [Record] = podcastRecords()) -> FixtureStore { FixtureStore(records) }

  /// `count` simple records one second apart.
  static func many(_ count: Int) -> FixtureStore {
    var records: [Record] = []
    for index in 0..<count {
      let isScreen = index % 3 == 0
      let violations: [RecordViolation] =
        index % 50 == 49 ? [RecordViolation(rule: "r", message: "m", consequence: "error")] : []
      let output = ProviderOutput(provider: "firebase", status: .sent, violations: violations)
      let screen: String = "screen" + String(index / 3 * 3)
      records.append(
        record(
          index + 1, Double(index), isScreen ? .screen : .userAction,
          (isScreen ? "screen" : "action") + String(index), [:], context([screen]), [output]))
    }
    return store(records)
  }

  static func state(
    _ store: FixtureStore = store(), mode: Mode = .replay, size: Size = Size(width: 140, height: 40)
  ) -> UISession {
    UISession(source: store.source, mode: mode, size: size, now: 1000)
  }
}

extension UISession {
  /// Applies keys typed as a string (each character one key).
  mutating func type(_ text: String) {
    for character in text { apply(.key(.character(character))) }
  }
}

/// Renders a session's state.
func render(_ session: UISession, size: Size? = nil) -> Grid { render(session.state, size: size) }
