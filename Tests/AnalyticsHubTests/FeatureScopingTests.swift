import AnalyticsHub
import AnalyticsHubTesting
import XCTest

// A feature with a tag of every kind, embedded in an app that has tags of its own.

private enum ReaderScreen: String, AnalyticsTag, Hashable {
  case article, comments
  var name: String { rawValue }
}

private enum ReaderAction: AnalyticsTag, Hashable {
  case share(article: String)
  var name: String { "share" }
  var properties: Properties {
    switch self {
    case .share(let article): ["article": .string(article)]
    }
  }
}

private enum ReaderEvent: String, AnalyticsTag, Hashable {
  case articleLoaded
  var name: String { rawValue }
}

private enum ReaderState: AnalyticsTag, Hashable {
  case fontSize(Int)
  var name: String { "fontSize" }
  var properties: Properties {
    switch self {
    case .fontSize(let size): ["value": .int(size)]
    }
  }
}

private enum ReaderTimedEvent: String, AnalyticsTag, Hashable {
  case reading
  var name: String { rawValue }
}

private enum ReaderTaxonomy: Taxonomy {
  typealias Screen = ReaderScreen
  typealias UserAction = ReaderAction
  typealias Event = ReaderEvent
  typealias State = ReaderState
  typealias TimedEvent = ReaderTimedEvent
}

private enum NewsScreen: AnalyticsTag, Hashable {
  case home
  case reader(ReaderScreen)
  var name: String {
    switch self {
    case .home: "home"
    case .reader(let screen): screen.name
    }
  }
}

private enum NewsAction: AnalyticsTag, Hashable {
  case search(String)
  case reader(ReaderAction)
  var name: String {
    switch self {
    case .search: "search"
    case .reader(let action): action.name
    }
  }
  var properties: Properties {
    switch self {
    case .search(let query): ["query": .string(query)]
    case .reader(let action): action.properties
    }
  }
}

private enum NewsEvent: AnalyticsTag, Hashable {
  case reader(ReaderEvent)
  var name: String {
    switch self {
    case .reader(let event): event.name
    }
  }
}

private enum NewsState: AnalyticsTag, Hashable {
  case reader(ReaderState)
  case darkMode(Bool)
  var name: String {
    switch self {
    case .reader(let state): state.name
    case .darkMode: "darkMode"
    }
  }
  var properties: Properties {
    switch self {
    case .reader(let state): state.properties
    case .darkMode(let on): ["value": .bool(on)]
    }
  }
}

private enum NewsTimedEvent: AnalyticsTag, Hashable {
  case onboarding
  case reader(ReaderTimedEvent)
  var name: String {
    switch self {
    case .onboarding: "onboarding"
    case .reader(let timed): timed.name
    }
  }
}

private enum NewsTaxonomy: Taxonomy {
  typealias Screen = NewsScreen
  typealias UserAction = NewsAction
  typealias Event = NewsEvent
  typealias State = NewsState
  typealias TimedEvent = NewsTimedEvent
}

private enum ReaderInNews: FeatureEmbedding {
  typealias Feature = ReaderTaxonomy
  typealias App = NewsTaxonomy
  static func embed(screen: ReaderScreen) -> NewsScreen { .reader(screen) }
  static func extract(screen: NewsScreen) -> ReaderScreen? {
    if case .reader(let screen) = screen { screen } else { nil }
  }
  static func embed(userAction: ReaderAction) -> NewsAction { .reader(userAction) }
  static func extract(userAction: NewsAction) -> ReaderAction? {
    if case .reader(let action) = userAction { action } else { nil }
  }
  static func embed(event: ReaderEvent) -> NewsEvent { .reader(event) }
  static func extract(event: NewsEvent) -> ReaderEvent? {
    switch event {
    case .reader(let event): event
    }
  }
  static func embed(state: ReaderState) -> NewsState { .reader(state) }
  static func extract(state: NewsState) -> ReaderState? {
    if case .reader(let state) = state { state } else { nil }
  }
  static func embed(timedEvent: ReaderTimedEvent) -> NewsTimedEvent { .reader(timedEvent) }
  static func extract(timedEvent: NewsTimedEvent) -> ReaderTimedEvent? {
    if case .reader(let timed) = timedEvent { timed } else { nil }
  }
}

/// A feature that uses user actions only: the other kinds need no embedding.
private enum SearchTaxonomy: Taxonomy {
  typealias UserAction = SearchAction
}

private enum SearchAction: String, AnalyticsTag, Hashable {
  case submit
  var name: String { rawValue }
}

private enum SearchInNews: FeatureEmbedding {
  typealias Feature = SearchTaxonomy
  typealias App = NewsTaxonomy
  static func embed(userAction: SearchAction) -> NewsAction { .search(userAction.rawValue) }
  static func extract(userAction: NewsAction) -> SearchAction? {
    if case .search(let query) = userAction { SearchAction(rawValue: query) } else { nil }
  }
}

private struct Call: ProviderCall, Hashable {
  var method: String
  var name: String?
  var parameters: Properties = [:]
}

final class FeatureScopingTests: XCTestCase {
  private func makeHub(mapping: @escaping Mapping<NewsTaxonomy, Call>) throws -> (
    AnalyticsHub<NewsTaxonomy>, TestAdapter<Call>, DispatchRecorder
  ) {
    let clock = ManualClock()
    let adapter = TestAdapter<Call>()
    let hub = try AnalyticsHub<NewsTaxonomy>(
      configuration: HubConfiguration(clock: clock.hubClock),
      providers: [Provider(id: "tracker", adapter: adapter, mapping: mapping)])
    return (hub, adapter, DispatchRecorder(observing: hub))
  }

  func testAScopedTrackerSendsEveryKindEmbeddedWithTheFeatureTagsNamesAndProperties() throws {
    let (hub, _, dispatches) = try makeHub { _, _ in [] }
    let reader = hub.scoped(to: ReaderInNews.self)
    reader.send(screen: .article)
    reader.send(userAction: .share(article: "a-1"))
    reader.send(event: .articleLoaded)
    reader.send(state: .fontSize(14))
    reader.start(timedEvent: .reading)
    reader.stop(timedEvent: .reading)
    reader.start(timedEvent: .reading)
    reader.cancel(timedEvent: .reading)
    reader.flush()

    let sent = dispatches.dispatches
    XCTAssertEqual(
      sent.map(\.kind),
      [.screen, .userAction, .event, .state, .timedStart, .timedStop, .timedStart, .timedStop])
    XCTAssertEqual(
      sent.map(\.name),
      ["article", "share", "articleLoaded", "fontSize", "reading", "reading", "reading", "reading"])
    XCTAssertEqual(sent[1].properties, ["article": "a-1"])
    XCTAssertEqual(sent[3].properties, ["value": 14])
    XCTAssertEqual(hub.context.currentScreen, .reader(.article), "the hub holds the app's tag")
    XCTAssertTrue(sent.allSatisfy(\.issues.isEmpty), "the timed event stopped is the one started")
  }

  func testAFeatureThatUsesOneKindEmbedsOnlyThatOne() throws {
    let (hub, _, dispatches) = try makeHub { _, _ in [] }
    hub.scoped(to: SearchInNews.self).send(userAction: .submit)
    hub.flush()
    XCTAssertEqual(dispatches.dispatches.map(\.name), ["search"])
    XCTAssertEqual(dispatches.dispatches.first?.properties, ["query": "submit"])
    XCTAssertNil(SearchInNews.extract(Tag<NewsTaxonomy>.screen(.home)))
  }

  func testALiftedMappingSeesTheFeatureTagsOnlyAndTheOtherTagsMapToNothing() throws {
    let seen = TestAdapter<Call>()
    let readerMapping: Mapping<ReaderTaxonomy, Call> = { tag, context in
      try? seen.deliver(Call(method: "\(tag.kind)", name: tag.name, parameters: tag.properties))
      switch tag {
      case .userAction(.share(let article)):
        return [Call(method: "track", name: "share_" + (context.currentScreen?.name ?? "elsewhere"))]
          + [Call(method: "track", name: article)]
      case .timedStop(.reading, let duration):
        return [Call(method: "track", name: "reading_stop", parameters: ["duration": .double(duration)])]
      default:
        return []
      }
    }
    let (hub, adapter, _) = try makeHub(mapping: ReaderInNews.lift(readerMapping))
    hub.startSession()
    hub.send(screen: .home)
    hub.send(userAction: .search("swift"))
    hub.send(userAction: .reader(.share(article: "a-1")))  // the app is on home: no feature screen
    hub.send(screen: .reader(.article))
    hub.send(screen: .reader(.comments))
    hub.send(userAction: .reader(.share(article: "a-2")))
    hub.start(timedEvent: .onboarding)
    hub.stop(timedEvent: .onboarding)
    hub.start(timedEvent: .reader(.reading))
    hub.stop(timedEvent: .reader(.reading))
    hub.send(state: .darkMode(true))
    hub.identify(AnalyticsUser(id: "u-1"))
    hub.setConsent(false, for: .category(.marketing))
    hub.flush()

    XCTAssertEqual(
      seen.calls.map { "\($0.method) \($0.name ?? "")" },
      [
        "userAction share", "screen article", "screen comments", "userAction share", "timedStart reading",
        "timedStop reading",
      ], "sessions, identity, consent and the app's own tags do not reach the feature's mapping")
    XCTAssertEqual(
      adapter.names, ["share_elsewhere", "a-1", "share_comments", "a-2", "reading_stop"])
  }

  func testTheFeatureContextKeepsTheTrailingFeatureScreensAndTheRestOfTheContext() {
    let session = Session(
      id: "s-1", properties: ["voiceOver": true], startedAt: Date(timeIntervalSince1970: 0))
    let app = HubContext<NewsTaxonomy>(
      history: [.reader(.article), .home, .reader(.article), .reader(.comments)], session: session,
      user: AnalyticsUser(id: "u-1"), timedEvents: ["reading": Date(timeIntervalSince1970: 1)])
    let feature = ReaderInNews.featureContext(app)
    XCTAssertEqual(feature.history, [.article, .comments])
    XCTAssertEqual(feature.currentScreen, .comments)
    XCTAssertEqual(feature.previousScreen, .article)
    XCTAssertEqual(feature.session, session)
    XCTAssertEqual(feature.user?.id, "u-1")
    XCTAssertEqual(Array(feature.timedEvents.keys), ["reading"])

    let elsewhere = ReaderInNews.featureContext(HubContext(history: [.reader(.article), .home]))
    XCTAssertNil(elsewhere.currentScreen, "the app shows one of its own screens")
    XCTAssertEqual(elsewhere.history, [])
  }

  func testCombinedMappingsConcatenateTheirCallsInOrder() {
    let first: Mapping<NewsTaxonomy, Call> = { tag, _ in
      if case .userAction(.search) = tag { [Call(method: "track", name: "first")] } else { [] }
    }
    let second: Mapping<NewsTaxonomy, Call> = { tag, _ in [Call(method: "track", name: "second " + tag.name)]
    }
    let combined = Mappings.combined(first, ReaderInNews.lift { _, _ in [] }, second)
    let context = HubContext<NewsTaxonomy>()
    XCTAssertEqual(
      combined(.userAction(.search("q")), context).compactMap(\.name), ["first", "second search"])
    XCTAssertEqual(combined(.state(.darkMode(true)), context).compactMap(\.name), ["second darkMode"])
    XCTAssertEqual(Mappings.combined([Mapping<NewsTaxonomy, Call>]())(.reset, context), [])
  }

  func testARecordingTrackerRecordsWhatTheFeatureSentWithoutAnApp() {
    let tracker = RecordingTracker<ReaderTaxonomy>()
    let reader: any AnalyticsTracking<ReaderTaxonomy> = tracker
    reader.send(screen: .article)
    reader.send(userAction: .share(article: "a-1"))
    reader.send(event: .articleLoaded)
    reader.send(state: .fontSize(14))
    reader.start(timedEvent: .reading)
    reader.stop(timedEvent: .reading)
    reader.cancel(timedEvent: .reading)
    reader.flush()
    XCTAssertEqual(
      tracker.sent,
      [
        .screen(.article), .userAction(.share(article: "a-1")), .event(.articleLoaded), .state(.fontSize(14)),
        .start(.reading), .stop(.reading), .cancel(.reading),
      ])
    XCTAssertEqual(
      tracker.names, ["article", "share", "articleLoaded", "fontSize", "reading", "reading", "reading"])
    XCTAssertEqual(tracker.sent[1].properties, ["article": "a-1"])
    tracker.removeAll()
    XCTAssertTrue(tracker.sent.isEmpty)
  }

  func testAScopedTrackerOfAScopedTrackerAndACombinedOneStillSendOnlyTheFeatureTags() throws {
    let (hub, _, dispatches) = try makeHub { _, _ in [] }
    let recording = RecordingTracker<NewsTaxonomy>()
    let both = hub.combined(with: recording).scoped(to: ReaderInNews.self)
    both.send(userAction: .share(article: "a-1"))
    both.flush()
    XCTAssertEqual(dispatches.dispatches.map(\.name), ["share"])
    XCTAssertEqual(recording.sent, [.userAction(.reader(.share(article: "a-1")))])
  }
}
