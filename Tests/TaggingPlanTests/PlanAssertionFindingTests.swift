import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanTesting
import XCTest

/// `XCTAssertConformsToPlan` (and the `require…` it calls) fails at the caller on the sequence
/// and privacy findings as on a schema one: a tag repeated in its session, a funnel broken, a call
/// after its consent category was withdrawn, personal data in a property, each sent through the
/// demo's real hub and mappings as an app's unit test sends them. A funnel the run ends in the
/// middle of is no violation, but fails a test that asks for finished funnels.
extension PlanAssertionTests {
  private func run(_ yaml: String) throws -> (PlanTestRun, AnalyticsHub<PodcastTaxonomy>) {
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: ManualClock(), seed: 1)
    return (PlanTestRun(plan: try PlanLoader.load(yaml: yaml, file: "demo-plan.yaml"), observing: hub), hub)
  }

  /// The demo plan with `old` replaced by `new` (failing the test when it is not there).
  private func demoPlan(replacing old: String, with new: String) throws -> String {
    XCTAssertTrue(DemoPlan.yaml.contains(old), old)
    return DemoPlan.yaml.replacingOccurrences(of: old, with: new)
  }

  /// The one failure `XCTAssertConformsToPlan(run…)` records, at the caller's line (on Darwin,
  /// `XCTExpectFailure` checks it and this returns nil).
  private func conformanceFailure(
    _ run: PlanTestRun, requireFinishedFunnels: Bool = false, file: StaticString = #filePath,
    line: UInt = #line
  ) -> String? {
    let assertionLine = #line + 2
    let failures = expectFailures {
      XCTAssertConformsToPlan(run, requireFinishedFunnels: requireFinishedFunnels)
    }
    guard let failures else { return nil }
    XCTAssertEqual(failures.map(\.line), [assertionLine], file: file, line: line)
    return failures.first?.description
  }

  func testARepeatedTagAndABrokenFunnelFailTheAssertion() throws {
    let (run, hub) = try run(
      demoPlan(replacing: "\n  deletePodcast:\n", with: "\n  deletePodcast:\n    once: session\n"))
    let podcast = Podcast.catalogue[0]
    hub.send(screen: .podcasts)
    hub.send(userAction: .deletePodcast(podcast))
    XCTAssertConformsToPlan(run)
    hub.send(userAction: .deletePodcast(podcast))
    hub.send(event: .playerDidPlay(podcast))
    XCTAssertEqual(run.violations.map(\.rule), [.repeated, .funnelOrder])
    if let description = conformanceFailure(run) {
      XCTAssertTrue(description.contains("XCTAssertConformsToPlan failed: 2 violations of plan"), description)
      XCTAssertTrue(
        description.contains(
          "\n  #3 error repeated: deletePodcast on podcasts: deletePodcast sent again in the same session"),
        description)
      XCTAssertTrue(description.contains("first sent as #2 deletePodcast"), description)
      XCTAssertTrue(
        description.contains(
          "\n  #4 error funnel-order: playerDidPlay on podcasts: funnel playback broken: step 2 of 2"),
        description)
    }
  }

  func testACallAfterItsCategoryWasWithdrawnFailsTheAssertion() throws {
    // The app's hub files Firebase under analytics; the plan says marketing.
    let (run, hub) = try run(
      demoPlan(
        replacing: "analytics: [firebase, amplitude, piano, fpti, segment, mixpanel]",
        with: "analytics: [amplitude, piano, fpti, segment, mixpanel]\n    marketing: [braze, firebase]"
      ).replacingOccurrences(of: "\n    marketing: [braze]\n", with: "\n"))
    hub.send(screen: .podcasts)
    XCTAssertConformsToPlan(run)
    hub.setConsent(false, for: .category(.marketing))
    hub.send(screen: .favorites)
    XCTAssertEqual(run.violations.map(\.rule), [.consentWithdrawn])
    XCTAssertEqual(run.violations.first?.provider, "firebase")
    if let description = conformanceFailure(run) {
      XCTAssertTrue(description.contains("1 violation of plan"), description)
      XCTAssertTrue(
        description.contains("error consent-withdrawn: screen favorites: firebase got logEvent screen_view "),
        description)
      XCTAssertTrue(
        description.contains("after consent for marketing was withdrawn by #2 consent"), description)
    }
  }

  func testPersonalDataInAPropertyFailsTheAssertionWithTheValueMasked() throws {
    let (run, hub) = try run(DemoPlan.yaml)
    let podcast = Podcast(
      id: "p-1", title: "Write to jo.smith@example.com", duration: 60, category: "news", sizeBytes: 1)
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(podcast))
    let found = run.violations.filter { $0.rule == .personalData }
    XCTAssertFalse(found.isEmpty, "\(run.violations.map(\.message))")
    if let description = conformanceFailure(run) {
      XCTAssertTrue(description.contains(" personal-data: playPodcast"), description)
      XCTAssertTrue(description.contains("email"), description)
      for violation in found {
        XCTAssertFalse(violation.message.contains("jo.smith@example.com"), violation.message)
      }
    }
  }

  func testAFunnelLeftUnfinishedFailsOnlyATestThatAsksForFinishedFunnels() throws {
    let (run, hub) = try run(DemoPlan.yaml)
    let podcast = Podcast.catalogue[0]
    hub.send(screen: .podcasts)
    hub.send(event: .playerDidLoad(podcast))
    XCTAssertConformsToPlan(run)
    XCTAssertNoThrow(try run.requireNoViolations())
    let unfinished = run.unfinishedFunnels
    XCTAssertEqual(unfinished.map(\.funnel), ["playback"])
    XCTAssertEqual(unfinished.first?.reached, 1)
    XCTAssertEqual(unfinished.first?.next, "playerDidPlay")
    XCTAssertEqual(unfinished.first?.last.seq, 2)
    let note = try XCTUnwrap(unfinished.first?.description)
    XCTAssertTrue(
      note.hasPrefix(
        "funnel playback unfinished: step 2 of 2 (playerDidPlay) not reached after #2 playerDidLoad at "),
      note)
    XCTAssertThrowsError(try run.requireNoViolations(requireFinishedFunnels: true)) { error in
      let failure = error as? PlanTestFailure
      XCTAssertEqual(failure?.unfinishedFunnels, unfinished)
      XCTAssertEqual(failure?.violations, [])
      XCTAssertEqual(
        failure?.description,
        "1 funnel of plan Podcasts v3 (demo-plan.yaml) unfinished at the end of the run:\n  \(note)")
    }
    if let description = conformanceFailure(run, requireFinishedFunnels: true) {
      XCTAssertTrue(description.hasSuffix("unfinished at the end of the run:\n  \(note)"), description)
    }
    // The next step finishes it.
    hub.send(event: .playerDidPlay(podcast))
    XCTAssertEqual(run.unfinishedFunnels, [])
    XCTAssertNoThrow(try run.requireNoViolations(requireFinishedFunnels: true))
    XCTAssertConformsToPlan(run, requireFinishedFunnels: true)
  }
}
