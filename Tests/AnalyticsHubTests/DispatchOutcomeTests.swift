import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import XCTest

final class DispatchOutcomeTests: XCTestCase {
  func testPlayOnFavoritesSendsFromFavoritesToTracker() throws {
    let firebase = TestAdapter<TrackerCall>()
    let (hub, _) = try makeHub([Provider(id: "firebase", adapter: firebase, mapping: trackerMapping)])
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    XCTAssertEqual(firebase.names.last, "play_podcast_from_favorites")
  }

  func testPlayOnPodcastsSendsFromPodcasts() throws {
    let firebase = TestAdapter<TrackerCall>()
    let (hub, _) = try makeHub([Provider(id: "firebase", adapter: firebase, mapping: trackerMapping)])
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    XCTAssertEqual(firebase.names, ["show_podcasts", "play_podcast_from_podcasts"])
    XCTAssertEqual(
      firebase.calls.last,
      .event("play_podcast_from_podcasts", ["podcast_title": "Swift by Sundell", "podcast_duration": 1830]))
  }

  func testObserversSeeSentDroppedBlockedAndFailed() throws {
    let sent = TestAdapter<TrackerCall>()
    let failing = TestAdapter<TrackerCall>()
    failing.failDeliveries(with: DeliveryError())
    let (hub, recorder) = try makeHub([
      Provider(id: "sent", adapter: sent, mapping: trackerMapping),
      Provider(id: "ignores", adapter: TestAdapter<TrackerCall>()) { _, _ in [] },
      Provider(id: "off", enabled: false, adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping),
      Provider(id: "failing", adapter: failing, mapping: trackerMapping),
    ])
    hub.send(screen: .podcasts)
    hub.flush()
    let dispatch = try XCTUnwrap(recorder.last)
    XCTAssertEqual(dispatch.kind, .screen)
    XCTAssertEqual(dispatch.name, "podcasts")
    XCTAssertEqual(dispatch.outcome(for: "sent")?.status, .sent)
    XCTAssertEqual(
      dispatch.outcome(for: "sent")?.calls, [CallDescription(method: "trackScreen", name: "show_podcasts")])
    XCTAssertEqual(dispatch.outcome(for: "ignores")?.status, .dropped)
    XCTAssertEqual(dispatch.outcome(for: "off")?.status, .blocked(.disabled))
    XCTAssertEqual(dispatch.outcome(for: "failing")?.status, .failed("SDK not configured"))
    XCTAssertEqual(dispatch.outcomes.map(\.provider), ["sent", "ignores", "off", "failing"])
  }

  func testSequenceNumbersAndTimesFollowTheClock() throws {
    let clock = ManualClock()
    let (hub, recorder) = try makeHub([], clock: clock)
    hub.send(screen: .podcasts)
    clock.advance(by: 1.5)
    hub.send(event: .playerDidLoad(swiftBySundell))
    hub.flush()
    XCTAssertEqual(recorder.dispatches.map(\.seq), [1, 2])
    XCTAssertEqual(
      recorder.dispatches[1].time.timeIntervalSince(recorder.dispatches[0].time), 1.5, accuracy: 1e-9)
    XCTAssertEqual(recorder.dispatches[1].properties["podcast_title"], "Swift by Sundell")
  }

  func testEventTypeDefaultsByKindAndCanBeRefined() throws {
    let (hub, recorder) = try makeHub([])
    hub.send(screen: .podcasts)
    hub.send(userAction: .openPodcast(swiftBySundell))
    hub.send(userAction: .pausePodcast(swiftBySundell))
    hub.send(event: .playerDidLoad(swiftBySundell))
    hub.flush()
    XCTAssertEqual(recorder.dispatches.map(\.eventType), [.impression, .redirect, .click, .activity])
    XCTAssertEqual(EventType.allCases.map(\.rawValue), ["ac", "cl", "im", "rd", "ua"])
  }

  func testUnrepresentableValueIsReportedNotLost() throws {
    struct Broken: Taxonomy {
      enum Event: AnalyticsTag {
        case measured(Double)
        var name: String { "measured" }
        var properties: Properties {
          if case .measured(let value) = self {
            return ["value": .double(value), "nested": ["list": [1, .double(value)]]]
          }
          return [:]
        }
      }
    }
    let hub = try AnalyticsHub<Broken>()
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    hub.send(event: .measured(.nan))
    hub.flush()
    let dispatch = try XCTUnwrap(recorder.last)
    XCTAssertEqual(dispatch.issues.map(\.code), [.unrepresentableValue])
    XCTAssertTrue(dispatch.issues[0].message.contains("'value'"), dispatch.issues[0].message)
    let nested: Properties = ["a": ["b": [1, .double(.infinity)]]]
    XCTAssertEqual(nested.firstUnrepresentablePath, "a.b[1]")
  }

  func testRuleViolationsTravelWithTheDispatchAndNeverReachTheApp() throws {
    let adapter = TestAdapter<TrackerCall>()
    let rules: RuleCheck<TrackerCall> = { calls in
      calls.enumerated().compactMap { index, call in
        (call.name?.count ?? 0) > 20
          ? RuleViolation(
            rule: "tracker.name-length", message: "too long", consequence: .dropped, callIndex: index)
          : nil
      }
    }
    let (hub, recorder) = try makeHub([
      Provider(id: "tracker", adapter: adapter, rules: rules, mapping: trackerMapping)
    ])
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: "tracker")?.violations.map(\.rule), ["tracker.name-length"])
    XCTAssertEqual(
      adapter.names.last, "play_podcast_from_favorites", "the adapter still gets what the SDK would get")
  }

  func testRuleChecksCanBeSwitchedOff() throws {
    let rules: RuleCheck<TrackerCall> = { _ in
      [RuleViolation(rule: "always", message: "x", consequence: .degraded)]
    }
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      configuration: HubConfiguration(checksProviderRules: false),
      providers: [
        Provider(id: "t", adapter: TestAdapter<TrackerCall>(), rules: rules, mapping: trackerMapping)
      ])
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: "t")?.violations, [])
  }

  func testRemovedObserverNoLongerReceives() throws {
    let (hub, recorder) = try makeHub([])
    hub.send(screen: .podcasts)
    hub.removeObserver(recorder)
    hub.send(screen: .favorites)
    hub.flush()
    XCTAssertEqual(recorder.dispatches.count, 1)
  }
}
