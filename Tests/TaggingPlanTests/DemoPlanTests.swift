import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan

final class DemoPlanTests: XCTestCase {
  func testDemoPlanLoadsAndCoversTheWholeTaxonomy() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    XCTAssertEqual(plan.title, "Podcasts v3")
    XCTAssertEqual(
      Set(plan.entries.filter { $0.section == .screens }.map(\.name)), Set(PodcastScreen.allCases.map(\.name))
    )
    let podcast = Podcast.catalogue[0]
    let actions: [PodcastAction] = [
      .playPodcast(podcast), .pausePodcast(podcast), .downloadPodcast(podcast), .deletePodcast(podcast),
      .addPodcastToFavorite(podcast), .removePodcastFromFavorite(podcast), .login(method: "email"), .logout,
      .openPodcast(podcast),
    ]
    let events: [PodcastEvent] = [
      .playerDidLoad(podcast), .playerDidPlay(podcast), .playerDidStop(podcast, position: 3),
      .playerDidFail(podcast, error: "network"),
      .notEnoughStorageSpaceForDownload(podcast, availableBytes: 10),
    ]
    let states: [PodcastState] = [
      .autoPlay(true), .favorites([podcast]), .remoteNotificationAuthorized(false),
    ]
    let timed: [PodcastTimedEvent] = [.onboarding, .listening(podcast)]
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .actions }.map(\.name)), Set(actions.map(\.name)))
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .events }.map(\.name)), Set(events.map(\.name)))
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .states }.map(\.name)), Set(states.map(\.name)))
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .timed }.map(\.name)), Set(timed.map(\.name)))
    for entry in plan.entries {
      XCTAssertEqual(
        Set(entry.providers.map(\.provider)), ["firebase", "amplitude", "piano", "braze", "fpti"], entry.label
      )
    }
    let play = try XCTUnwrap(plan.entry(section: .actions, name: "playPodcast"))
    XCTAssertEqual(play.properties?.map(\.name), ["podcast_id", "podcast_title", "podcast_duration"])
    XCTAssertEqual(plan.entry(section: .actions, name: "pausePodcast")?.properties, play.properties)
  }

  /// A session through every screen and tag of the demo app, on a real hub with the demo's real
  /// mappings, as an attached inspector records it.
  static func demoSession() throws -> [Record] {
    let clock = ManualClock()
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      configuration: HubConfiguration(clock: clock.hubClock, makeSessionID: { "s-1" }),
      providers: PodcastMappings.providers())
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    let podcast = Podcast.catalogue[0]
    let other = Podcast.catalogue[1]
    hub.startSession(properties: ["voiceOver": false])
    hub.send(screen: .onboarding)
    hub.start(timedEvent: .onboarding)
    clock.advance(by: 2)
    hub.stop(timedEvent: .onboarding)
    hub.send(screen: .login)
    hub.send(userAction: .login(method: "email"))
    hub.identify(AnalyticsUser(id: "user-42"))
    hub.send(screen: .podcasts)
    hub.send(userAction: .openPodcast(podcast))
    hub.send(userAction: .playPodcast(podcast))
    hub.send(screen: .podcastPlayer)
    hub.send(event: .playerDidLoad(podcast))
    hub.send(event: .playerDidPlay(podcast))
    hub.start(timedEvent: .listening(podcast))
    clock.advance(by: 30)
    hub.send(userAction: .pausePodcast(podcast))
    hub.stop(timedEvent: .listening(podcast))
    hub.send(event: .playerDidStop(podcast, position: 30))
    hub.send(userAction: .addPodcastToFavorite(podcast))
    hub.send(state: .favorites([podcast]))
    hub.send(userAction: .removePodcastFromFavorite(podcast))  // bug: 54-character Firebase name
    hub.send(event: .playerDidFail(podcast, error: "network"))
    hub.send(screen: .favorites)
    hub.send(userAction: .addPodcastToFavorite(other))
    hub.send(userAction: .removePodcastFromFavorite(other))
    hub.send(userAction: .playPodcast(other))  // bug: reaches Piano
    hub.send(userAction: .pausePodcast(other))  // bug: no podcast_title at Firebase
    hub.send(screen: .downloads)
    hub.send(userAction: .downloadPodcast(other))
    // Deliberate bug: Braze gets "$required_bytes".
    hub.send(event: .notEnoughStorageSpaceForDownload(podcast, availableBytes: 1_000))
    hub.send(userAction: .deletePodcast(other))
    hub.send(screen: .settings)
    hub.send(state: .autoPlay(true))
    hub.send(state: .remoteNotificationAuthorized(false))
    hub.start(timedEvent: .onboarding)
    hub.cancel(timedEvent: .onboarding)
    hub.send(userAction: .logout)
    hub.reset()
    hub.endSession()
    hub.flush()
    return recorder.dispatches.map { Record(dispatch: $0) }
  }

  func testDemoPlanCatchesExactlyTheDeliberateBugsOfTheDemoMappings() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    let (violations, validator) = validate(try Self.demoSession(), plan: plan)
    let found = violations.map { "\($0.rule.rawValue) \($0.tag) \($0.provider ?? "-")" }
    XCTAssertEqual(
      found,
      [
        "provider-rule removePodcastFromFavorite firebase",
        "wrong-name removePodcastFromFavorite firebase",
        "unexpected-call playPodcast piano",
        "missing-param pausePodcast firebase",
        "provider-rule notEnoughStorageSpaceForDownload braze",
        "missing-param notEnoughStorageSpaceForDownload braze",
      ], violations.map(\.message).joined(separator: "\n"))
    let wrongName = try XCTUnwrap(violations.first { $0.rule == .wrongName })
    XCTAssertTrue(
      wrongName.message.hasPrefix(
        "removePodcastFromFavorite on podcastPlayer: firebase got remove_podcast_from_favorites_on_podcast_player_screen, plan line "
      ), wrongName.message)
    XCTAssertTrue(wrongName.message.hasSuffix(" expects remove_podcast_from_favorites"), wrongName.message)
    XCTAssertEqual(validator.coverage.missing.filter { $0.provider == nil }.map(\.id), [])
  }

  func testSimulatorJourneysOnlyBreakThePlanWhereTheMappingsHaveDeliberateBugs() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 7)
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    let simulator = PodcastSimulator(hub: hub, seed: 7)
    for _ in 0..<3_000 { clock.advance(by: simulator.step()) }
    let (violations, validator) = validate(recorder.dispatches.map { Record(dispatch: $0) }, plan: plan)
    let kinds = Set(violations.map { "\($0.rule.rawValue) \($0.tag) \($0.provider ?? "-")" })
    let deliberate: Set<String> = [
      "provider-rule removePodcastFromFavorite firebase", "wrong-name removePodcastFromFavorite firebase",
      "unexpected-call playPodcast piano", "missing-param pausePodcast firebase",
      "provider-rule notEnoughStorageSpaceForDownload braze",
      "missing-param notEnoughStorageSpaceForDownload braze",
    ]
    XCTAssertEqual(kinds, deliberate, "every deliberate bug, and nothing else, is caught")
    XCTAssertEqual(
      kinds.subtracting(deliberate), [],
      violations.filter { !deliberate.contains("\($0.rule.rawValue) \($0.tag) \($0.provider ?? "-")") }
        .prefix(5)
        .map(\.message).joined(separator: "\n"))
    XCTAssertFalse(violations.isEmpty)
    XCTAssertEqual(validator.coverage.missing.map(\.id), [], "the journeys reach every planned expectation")
  }

  /// Issue 17: the live demo's opening tour reaches a violation of every deliberate bug within its
  /// first 10 simulated seconds, then goes on at human pace, breaking nothing else.
  func testTheOpeningTourReachesEveryDeliberateBugWithinTenSeconds() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 11)
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    let simulator = PodcastSimulator(hub: hub, seed: 11, tour: true)
    var elapsed = 0.0
    while elapsed < 10 {
      let delay = simulator.step()
      elapsed += delay
      clock.advance(by: delay)
    }
    hub.flush()
    let (violations, _) = validate(recorder.dispatches.map { Record(dispatch: $0) }, plan: plan)
    let found = Set(violations.map { "\($0.rule.rawValue) \($0.tag) \($0.provider ?? "-")" })
    XCTAssertEqual(
      found,
      [
        "provider-rule removePodcastFromFavorite firebase", "wrong-name removePodcastFromFavorite firebase",
        "unexpected-call playPodcast piano", "missing-param pausePodcast firebase",
        "provider-rule notEnoughStorageSpaceForDownload braze",
        "missing-param notEnoughStorageSpaceForDownload braze",
        // The two deliberate journey bugs (DemoPlan.journeyBugs): a double-fire, a broken funnel.
        "duplicate addPodcastToFavorite -", "funnel-order playerDidPlay -",
      ],
      "each of the \(PodcastMappings.deliberateBugs.count) deliberate bugs and "
        + "\(DemoPlan.journeyBugs.count) journey bugs within 10 s, nothing else")
    let journey = violations.filter { $0.rule == .duplicate || $0.rule == .funnelOrder }
    XCTAssertEqual(journey.count, 2, journey.map(\.message).joined(separator: "\n"))
    XCTAssertLessThan(recorder.dispatches.count, 40, "a short burst, not a flood")
    // Then human pace: the next steps wait seconds, not tenths.
    var later: [Double] = []
    for _ in 0..<20 { later.append(simulator.step()) }
    XCTAssertGreaterThan(later.reduce(0, +) / Double(later.count), 1.0, "\(later)")
  }
}
