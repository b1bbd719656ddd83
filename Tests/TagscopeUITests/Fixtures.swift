import AnalyticsHub
import TagscopeUI

/// Deterministic records of the podcast app for reducer and render tests.
enum Fixtures {
  static let start = 1_795_255_200.0  // 2026-11-21T10:00:00Z

  static func session(authenticated: Bool) -> SessionView {
    SessionView(
      id: "s-1", state: authenticated ? "authenticated" : "unauthenticated",
      user: authenticated ? "u-42" : nil,
      properties: ["voiceOver": .bool(authenticated), "textSize": "large"])
  }

  static func context(_ history: [String], authenticated: Bool = false, timers: [String] = []) -> ContextView
  {
    ContextView(
      screen: history.last, history: history, session: session(authenticated: authenticated),
      timedEvents: timers)
  }

  static func firebase(_ name: String, _ parameters: Properties, violations: [ViolationView] = [])
    -> OutputView
  {
    OutputView(
      provider: "firebase", status: "sent",
      calls: [CallDescription(method: "logEvent", name: name, parameters: parameters)], violations: violations
    )
  }

  /// Twelve records: a session, screens, plays, a consent change blocking braze, a failure, a
  /// violation, a timed event.
  static func podcastRecords() -> [RecordView] {
    let play: Properties = ["podcast_title": "Swift by Sundell", "podcast_duration": 1830]
    let amplitudePlay = OutputView(
      provider: "amplitude", status: "sent",
      calls: [CallDescription(method: "track", name: "Play Podcast", parameters: play)])
    let pianoDropped = OutputView(provider: "piano", status: "dropped")
    let brazeSent = OutputView(
      provider: "braze", status: "sent", calls: [CallDescription(method: "logCustomEvent", name: "play")])
    let brazeBlocked = OutputView(provider: "braze", status: "blocked", reason: "consent")
    var records: [RecordView] = []
    func add(
      _ offset: Double, _ kind: String, _ name: String, _ properties: Properties = [:],
      _ context: ContextView,
      _ outputs: [OutputView] = [], issues: [String] = []
    ) {
      records.append(
        RecordView(
          seq: UInt64(records.count + 1), time: start + offset, kind: kind, name: name,
          properties: properties,
          context: context, outputs: outputs, issues: issues))
    }
    add(0, "sessionStart", "sessionStart", [:], context([]))
    add(0.4, "timedStart", "onboarding", [:], context([], timers: ["onboarding"]))
    add(
      1.2, "screen", "podcasts", [:], context(["podcasts"], timers: ["onboarding"]),
      [firebase("screen_view", ["screen_name": "show_podcasts"]), pianoDropped])
    add(
      3.5, "userAction", "playPodcast", play, context(["podcasts"], timers: ["onboarding"]),
      [firebase("play_podcast_from_podcasts", play), amplitudePlay, pianoDropped, brazeSent])
    add(4.0, "timedStop", "onboarding", [:], context(["podcasts"]))
    add(
      6.1, "screen", "podcastPlayer", [:], context(["podcasts", "podcastPlayer"]),
      [firebase("screen_view", ["screen_name": "player"]), pianoDropped])
    add(
      8.0, "consent", "consent", ["scope": "provider:braze", "granted": false],
      context(["podcasts", "podcastPlayer"]))
    add(
      9.5, "userAction", "favoritePodcast", ["podcast_title": "Radiolab"],
      context(["podcasts", "podcastPlayer"]),
      [
        firebase("favorite_podcast", ["podcast_title": "Radiolab"]), amplitudePlay, pianoDropped,
        brazeBlocked,
      ])
    add(
      12.25, "event", "playerDidFail", ["error": "network"], context(["podcasts", "podcastPlayer"]),
      [
        OutputView(provider: "firebase", status: "failed", reason: "adapter threw: quota exceeded"),
        pianoDropped, brazeBlocked,
      ], issues: ["timed event \"download\" was not started"])
    add(
      15.0, "sessionUpdate", "login", [:], context(["podcasts", "podcastPlayer"], authenticated: true))
    add(
      18.75, "userAction", "downloadPodcastWithAVeryLongName", ["podcast_title": "Hardcore History"],
      context(["podcasts", "podcastPlayer", "favorites"], authenticated: true),
      [
        firebase(
          "download_podcast_with_a_very_long_event_name_over_forty", ["podcast_title": "Hardcore History"],
          violations: [
            ViolationView(
              rule: "firebase.event-name-length",
              message: "event name is 55 characters; Firebase allows 40 and logs firebase_error 2",
              severity: "replaced", callIndex: 0)
          ]), pianoDropped, brazeBlocked,
      ])
    add(
      20.0, "screen", "favorites", [:],
      context(["podcasts", "podcastPlayer", "favorites"], authenticated: true),
      [firebase("screen_view", ["screen_name": "favorites"]), pianoDropped])
    return records
  }

  static func store(_ records: [RecordView] = podcastRecords()) -> RecordStore {
    RecordStore(appName: "Podcasts", sourceLabel: "test fixture", records: records)
  }

  /// `count` simple records one second apart.
  static func many(_ count: Int) -> RecordStore {
    var records: [RecordView] = []
    for index in 0..<count {
      let isScreen = index % 3 == 0
      let violations: [ViolationView] = index % 50 == 49 ? [ViolationView(rule: "r", message: "m")] : []
      let output = OutputView(provider: "firebase", status: "sent", violations: violations)
      let screen: String = "screen" + String(index / 3 * 3)
      records.append(
        RecordView(
          seq: UInt64(index + 1), time: start + Double(index), kind: isScreen ? "screen" : "userAction",
          name: (isScreen ? "screen" : "action") + String(index), context: context([screen]),
          outputs: [output]))
    }
    return store(records)
  }

  static func state(
    _ store: RecordStore = store(), mode: Mode = .replay, size: Size = Size(width: 140, height: 40)
  ) -> State {
    var state = State(timeline: store, mode: mode, size: size, now: 1000)
    state.apply(.recordsArrived(count: store.count))
    return state
  }
}

extension State {
  /// Applies keys typed as a string (each character one key).
  mutating func type(_ text: String) {
    for character in text { apply(.key(.character(character))) }
  }
}
