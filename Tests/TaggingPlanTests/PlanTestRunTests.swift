import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TaggingPlanTesting
import XCTest

@testable import TaggingPlan

/// `PlanTestRun` on the demo's real hub and mappings (`DemoHub`, `PodcastMappings`) against its
/// plan (`DemoPlan`), as an app's unit test uses it.
final class PlanTestRunTests: XCTestCase {
  let podcast = Podcast.catalogue[0]

  func demoPlan() throws -> Plan { try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml") }

  func demoHub() throws -> AnalyticsHub<PodcastTaxonomy> {
    try DemoHub.make(providers: PodcastMappings.providers(), clock: ManualClock(), seed: 1)
  }

  /// The 1-based line of the demo plan's YAML holding `text`.
  func planLine(of text: String) throws -> Int {
    let lines = DemoPlan.yaml.split(separator: "\n", omittingEmptySubsequences: false)
    return try XCTUnwrap(lines.firstIndex { $0.contains(text) }) + 1
  }

  func testAConformingTagPasses() throws {
    let hub = try demoHub()
    let run = PlanTestRun(plan: try demoPlan(), observing: hub)
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(podcast))
    // No flush here: the run flushes the hub it observes before it is read.
    try run.requireNoViolations()
    XCTAssertEqual(run.violations, [])
    XCTAssertEqual(run.checks.map(\.record.name), ["podcasts", "playPodcast"])
    XCTAssertConformsToPlan(run)
  }

  func testTheDeliberatePauseBugOnFavoritesFailsWithThePlansMessage() throws {
    let hub = try demoHub()
    let run = PlanTestRun(plan: try demoPlan(), observing: hub)
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    hub.send(screen: .favorites)
    hub.send(userAction: .pausePodcast(podcast))
    hub.flush()
    let line = try planLine(of: "name: pause_podcast_from_favorites")
    let message =
      "pausePodcast on favorites: firebase pause_podcast_from_favorites has no parameter podcast_title, "
      + "plan line \(line) expects it"
    XCTAssertEqual(run.violations.map(\.message), [message])
    XCTAssertThrowsError(try run.requireNoViolations()) { error in
      let description = (error as? PlanTestFailure)?.description ?? ""
      XCTAssertTrue(
        description.hasPrefix(
          """
          1 violation of plan Podcasts v3 (demo-plan.yaml):
            #2 error missing-param: \(message)
              expected vs got · firebase pause_podcast_from_favorites

          """), description)
      XCTAssertTrue(description.contains("\n    ✗ param podcast_title "), description)
    }
    // Per dispatch: the screen conforms, the pause does not.
    let screen = try XCTUnwrap(recorder.dispatches.first)
    let pause = try XCTUnwrap(recorder.dispatches.last)
    XCTAssertNoThrow(try run.requireNoViolations(of: screen))
    XCTAssertEqual(run.violations(of: pause).map(\.rule), [.missingParam])
    XCTAssertThrowsError(try run.requireNoViolations(of: pause)) { error in
      XCTAssertTrue("\(error)".contains(message), "\(error)")
    }
    // The violation is an error, so it fails whatever the threshold.
    XCTAssertThrowsError(try run.requireNoViolations(failOn: .error))
    // The same dispatches handed over afterwards, and the plan's one-off check, agree.
    let later = PlanTestRun(plan: try demoPlan())
    XCTAssertEqual(later.check(recorder.dispatches).map(\.message), [message])
    XCTAssertEqual(try demoPlan().violations(of: pause).map(\.message), [message])
  }

  func testADispatchTheRunDidNotCheckFails() throws {
    let hub = try demoHub()
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    hub.send(screen: .podcasts)
    hub.flush()
    let run = PlanTestRun(plan: try demoPlan())
    XCTAssertThrowsError(try run.requireNoViolations(of: try XCTUnwrap(recorder.last))) { error in
      XCTAssertEqual(
        "\(error)", "#1 podcasts was not checked by this run (plan Podcasts v3 (demo-plan.yaml))")
    }
  }

  func testWarningsFailUnlessTheThresholdIsError() throws {
    let hub = try demoHub()
    let run = PlanTestRun(plan: try demoPlan(), observing: hub)
    hub.send(screen: .podcastPlayer)
    // playerDidFail is planned with severity warning; an empty error breaks its minLength 1.
    hub.send(event: .playerDidFail(podcast, error: ""))
    XCTAssertEqual(run.violations.map(\.severity), [.warning], run.violations.map(\.message).description)
    XCTAssertThrowsError(try run.requireNoViolations())
    XCTAssertNoThrow(try run.requireNoViolations(failOn: .error))
  }

  func testCoverageByIdAndByTagScreenAndProvider() throws {
    let hub = try demoHub()
    let plan = try demoPlan()
    let run = PlanTestRun(plan: plan, observing: hub)
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(podcast))
    hub.send(screen: .podcastPlayer)
    hub.send(userAction: .pausePodcast(podcast))

    try run.requireCovered("action playPodcast on podcasts: firebase", "screen podcasts: amplitude")
    try run.requireCovered(tag: "playPodcast", screen: "podcasts")
    try run.requireCovered(tag: "pausePodcast", provider: "amplitude")
    try run.requireCovered(tag: "podcasts", section: .screens)
    XCTAssertCovers(run, ["action playPodcast on podcasts: firebase"])
    XCTAssertCovers(run, tag: "playPodcast", screen: "podcasts", provider: "piano")

    let favoritesLine = try planLine(of: "name: play_podcast_from_favorites")
    XCTAssertThrowsError(try run.requireCovered("action playPodcast on favorites: firebase")) { error in
      XCTAssertEqual(
        "\(error)",
        """
        1 planned item of plan Podcasts v3 (demo-plan.yaml) not covered:
          action playPodcast on favorites: firebase (plan line \(favoritesLine))
        """)
    }
    XCTAssertThrowsError(try run.requireCovered(tag: "playPodcast", screen: "favorites")) { error in
      let failure = error as? PlanTestFailure
      XCTAssertEqual(
        failure?.uncovered.map(\.id),
        ["action playPodcast"]
          + ["firebase", "amplitude", "piano", "braze", "fpti"].map {
            "action playPodcast on favorites: \($0)"
          })
      XCTAssertTrue(
        "\(error)".hasPrefix("6 planned items of plan Podcasts v3 (demo-plan.yaml) not covered on favorites:")
      )
    }
    // Amplitude's pausePodcast item is for any screen: seen on the player, not on favorites.
    XCTAssertNoThrow(
      try run.requireCovered(tag: "pausePodcast", screen: "podcastPlayer", provider: "amplitude"))
    XCTAssertThrowsError(
      try run.requireCovered(tag: "pausePodcast", screen: "favorites", provider: "amplitude"))

    // Names the plan does not have fail instead of passing vacuously.
    XCTAssertThrowsError(try run.requireCovered("action playPodcst on podcasts: firebase")) { error in
      XCTAssertEqual(
        "\(error)",
        "the plan has no coverage item 'action playPodcst on podcasts: firebase' "
          + "(did you mean 'action playPodcast on podcasts: firebase'?) (plan Podcasts v3 (demo-plan.yaml))"
      )
    }
    XCTAssertThrowsError(try run.requireCovered(tag: "playPodcast", provider: "firebas")) { error in
      XCTAssertEqual(
        "\(error)",
        "the plan has no coverage item for tag playPodcast: firebas (plan Podcasts v3 (demo-plan.yaml))")
    }
    XCTAssertThrowsError(try run.requireCovered(tag: "playPodcst")) { error in
      XCTAssertEqual(
        "\(error)",
        "the plan has no coverage item for tag playPodcst (did you mean tag playPodcast?) "
          + "(plan Podcasts v3 (demo-plan.yaml))")
    }

    // What is not covered yet.
    let uncovered = run.uncovered
    XCTAssertEqual(uncovered.count, plan.coverageItems.count - run.coverage.seenCount)
    XCTAssertTrue(uncovered.contains { $0.id == "action playPodcast on favorites: firebase" })
    XCTAssertFalse(uncovered.contains { $0.id == "action playPodcast on podcasts: firebase" })
    XCTAssertThrowsError(try run.requireFullCoverage()) { error in
      XCTAssertEqual((error as? PlanTestFailure)?.uncovered, uncovered)
    }
    XCTAssertEqual(
      run.items(tag: "playPodcast", screen: "podcasts", provider: "firebase").map(\.id),
      ["action playPodcast on podcasts: firebase"])

    run.removeAll()
    XCTAssertEqual(run.coverage.seenCount, 0)
    XCTAssertEqual(run.checks, [])
  }

  func testBlockedProvidersDoNotCover() throws {
    let hub = try demoHub()
    let run = PlanTestRun(plan: try demoPlan(), observing: hub)
    hub.setConsent(false, for: .provider("amplitude"))
    hub.send(screen: .podcasts)
    try run.requireNoViolations()
    try run.requireCovered("screen podcasts: firebase")
    XCTAssertThrowsError(try run.requireCovered("screen podcasts: amplitude"))
  }
}

/// The XCTest wrappers fail at the caller's file and line with the failure's text. XCTest on
/// Linux has no `XCTExpectFailure`: there the test case captures its failures itself.
final class PlanAssertionTests: XCTestCase {
  struct Failure {
    var description: String
    var file: String
    var line: Int
  }

  var capturing = false
  var captured: [Failure] = []

  #if canImport(ObjectiveC)
    func expectFailures(_ body: () -> Void) -> [Failure]? {
      XCTExpectFailure("the assertion under test fails") { body() }
      return nil
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      guard capturing else {
        return super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
      captured.append(Failure(description: description, file: filePath, line: lineNumber))
    }

    func expectFailures(_ body: () -> Void) -> [Failure]? {
      capturing = true
      body()
      capturing = false
      defer { captured = [] }
      return captured
    }
  #endif

  func testTheAssertionsFailAtTheCallerWithTheViolations() throws {
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: ManualClock(), seed: 1)
    let run = PlanTestRun(
      plan: try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml"), observing: hub)
    hub.send(screen: .favorites)
    hub.send(userAction: .pausePodcast(Podcast.catalogue[0]))

    var line = #line + 1
    var failures = expectFailures { XCTAssertConformsToPlan(run, "pause on favorites") }
    if let failures {
      XCTAssertEqual(failures.count, 1)
      XCTAssertEqual(failures.first?.file, #filePath)
      XCTAssertEqual(failures.first?.line, line)
      let description = failures.first?.description ?? ""
      XCTAssertTrue(
        description.contains("XCTAssertConformsToPlan failed: 1 violation of plan Podcasts v3"), description)
      XCTAssertTrue(
        description.contains("firebase pause_podcast_from_favorites has no parameter podcast_title"),
        description)
      XCTAssertTrue(description.hasSuffix(" - pause on favorites"), description)
    }

    line = #line + 1
    failures = expectFailures { XCTAssertCovers(run, tag: "playPodcast", provider: "firebase") }
    if let failures {
      XCTAssertEqual(failures.map(\.line), [line])
      XCTAssertTrue(
        failures.first?.description.contains("  action playPodcast on podcasts: firebase (plan line ")
          == true,
        failures.first?.description ?? "")
    }
    failures = expectFailures {
      XCTAssertCovers(run, ["screen favorites: firebase", "screen podcasts: firebase"])
    }
    if let failures { XCTAssertEqual(failures.count, 1) }
    failures = expectFailures { XCTAssertCoversPlan(run) }
    if let failures { XCTAssertEqual(failures.count, 1) }
    let pause = try XCTUnwrap(run.checks.last)
    XCTAssertEqual(pause.record.name, "pausePodcast")

    // Passing assertions record nothing; an error fails whatever the threshold.
    failures = expectFailures { XCTAssertCovers(run, ["screen favorites: firebase"]) }
    if let failures { XCTAssertEqual(failures.count, 0) }
    failures = expectFailures { XCTAssertConformsToPlan(run, failOn: .error) }
    if let failures { XCTAssertEqual(failures.count, 1) }
  }
}
