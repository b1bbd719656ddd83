import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import XCTest

/// A rule as a provider's rule set would state it: event names of at most 20 characters.
private let shortNames: RuleCheck<TrackerCall> = { calls in
  calls.enumerated().compactMap { index, call in
    guard let name = call.name, name.count > 20 else { return nil }
    return RuleViolation(
      rule: "tracker.event-name-length",
      message: "event name \"\(name)\" is \(name.count) characters; the tracker keeps 20",
      consequence: .truncated, callIndex: index)
  }
}

final class RuleViolationAssertionTests: XCTestCase {
  private func makeObservedHub(
    checksRules: Bool = true
  ) throws -> (AnalyticsHub<PodcastTaxonomy>, TestAdapter<TrackerCall>, DispatchRecorder) {
    let tracker = TestAdapter<TrackerCall>()
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      configuration: HubConfiguration(checksProviderRules: checksRules),
      providers: [
        Provider(id: "tracker", adapter: tracker, rules: shortNames, mapping: trackerMapping),
        Provider(id: "lenient", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping),
      ])
    return (hub, tracker, DispatchRecorder(observing: hub))
  }

  func testTagsWithinTheRulesPass() throws {
    let (hub, tracker, dispatches) = try makeObservedHub()
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(tracker.names, ["show_podcasts"])
    XCTAssertEqual(dispatches.violations, [])
    try dispatches.assertNoRuleViolations()
    try dispatches.assertNoRuleViolations(provider: "tracker")
  }

  func testABrokenRuleFailsNamingTheProviderTheRuleAndTheMessage() throws {
    let (hub, tracker, dispatches) = try makeObservedHub()
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    XCTAssertEqual(tracker.names, ["play_podcast_from_favorites"], "the adapter still gets the call")
    XCTAssertEqual(dispatches.violations.map(\.provider), ["tracker"])
    XCTAssertEqual(dispatches.violations(for: "lenient"), [])
    XCTAssertNoThrow(try dispatches.assertNoRuleViolations(provider: "lenient"))

    XCTAssertThrowsError(try dispatches.assertNoRuleViolations()) { error in
      guard let failure = error as? RuleViolationFailure else { return XCTFail("\(error)") }
      XCTAssertEqual(failure.violations.map(\.violation.rule), ["tracker.event-name-length"])
      XCTAssertEqual(
        failure.description,
        """
        1 provider rule broken:
          #2 userAction playPodcast → tracker: tracker.event-name-length: \
        event name "play_podcast_from_favorites" is 27 characters; the tracker keeps 20
        """)
      XCTAssertEqual(failure.localizedDescription, failure.description)
    }
  }

  func testEveryBrokenRuleIsListedInDispatchOrder() throws {
    let (hub, _, dispatches) = try makeObservedHub()
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    let failure = try XCTUnwrap(catching { try dispatches.assertNoRuleViolations(provider: "tracker") })
    XCTAssertEqual(failure.violations.map(\.seq), [2, 4])
    let lines = failure.description.split(separator: "\n")
    XCTAssertEqual(lines.count, 3, failure.description)
    XCTAssertEqual(lines.first, "2 provider rules broken:")
    XCTAssertTrue(lines[1].hasPrefix("  #2 userAction playPodcast → tracker: tracker.event-name-length: "))
    XCTAssertTrue(lines[2].hasPrefix("  #4 userAction playPodcast → tracker: tracker.event-name-length: "))
  }

  func testAHubThatDoesNotCheckRulesCannotPass() throws {
    let (hub, _, dispatches) = try makeObservedHub(checksRules: false)
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    let failure = try XCTUnwrap(catching { try dispatches.assertNoRuleViolations() })
    XCTAssertTrue(failure.description.contains("checksProviderRules: false"), failure.description)
  }

  func testADispatchListsItsOwnViolations() throws {
    let (hub, _, dispatches) = try makeObservedHub()
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    let last = try XCTUnwrap(dispatches.last)
    XCTAssertEqual(
      last.observedViolations.map(\.description),
      [
        "#2 userAction playPodcast → tracker: tracker.event-name-length: "
          + "event name \"play_podcast_from_favorites\" is 27 characters; the tracker keeps 20"
      ])
  }

  /// The failure `body` threw, if any.
  private func catching(_ body: () throws -> Void) -> RuleViolationFailure? {
    do {
      try body()
      return nil
    } catch {
      return error as? RuleViolationFailure
    }
  }
}
