import AnalyticsHub
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan

final class CoverageTests: XCTestCase {
  func testItemsOfTheSamplePlan() throws {
    let plan = try samplePlan()
    XCTAssertEqual(
      plan.coverageItems.map(\.id),
      [
        "screen podcasts", "screen podcasts: firebase",
        "screen favorites", "screen favorites: firebase",
        "screen podcastPlayer",
        "action playPodcast",
        "action playPodcast on podcasts: firebase", "action playPodcast on favorites: firebase",
        "action playPodcast on podcasts: amplitude", "action playPodcast on favorites: amplitude",
        "action playPodcast on podcasts: piano", "action playPodcast on favorites: piano",
        "event playerDidFail",
        "state autoPlay",
        "timed listening", "timed listening: firebase",
      ])
    XCTAssertEqual(plan.coverageItems[7].location.line, 21)
  }

  func testCountsSeenAndMissing() throws {
    let plan = try samplePlan()
    let records = [
      goodPlay(1, screen: "favorites"), goodPlay(2, screen: "favorites"),
      record(
        3, .screen, "podcasts", screen: "podcasts",
        outputs: [sent("firebase", "screen_view", ["screen_name": "x"])]),
      record(4, .state, "autoPlay", ["value": true]),
    ]
    let coverage = validate(records, plan: plan).1.coverage
    XCTAssertEqual(coverage.planned, 16)
    XCTAssertEqual(coverage.seenCount, 7)
    XCTAssertEqual(coverage.summary, "7/16 covered")
    let playFavoritesFirebase = try XCTUnwrap(
      coverage.items.firstIndex { $0.id == "action playPodcast on favorites: firebase" })
    XCTAssertEqual(coverage.counts[playFavoritesFirebase], 2)
    XCTAssertEqual(
      coverage.missing.map(\.id),
      [
        "screen favorites", "screen favorites: firebase", "screen podcastPlayer",
        "action playPodcast on podcasts: firebase", "action playPodcast on podcasts: amplitude",
        "action playPodcast on podcasts: piano", "event playerDidFail", "timed listening",
        "timed listening: firebase",
      ])
  }

  func testMergeAddsCounts() throws {
    let plan = try samplePlan()
    var left = validate([goodPlay(1, screen: "favorites")], plan: plan).1.coverage
    let right = validate([goodPlay(2, screen: "podcasts"), goodPlay(3, screen: "favorites")], plan: plan).1
      .coverage
    left.merge(right)
    XCTAssertEqual(left.seenCount, 7)
    XCTAssertEqual(left.counts[plan.coverageItems.firstIndex { $0.id == "action playPodcast" }!], 3)
  }
}

final class PlanMonitorTests: XCTestCase {
  func testMonitorKeepsViolationsByPositionAndTheHeaderText() throws {
    let monitor = PlanMonitor(plan: try samplePlan())
    XCTAssertEqual(monitor.headerText, "plan Podcasts v3: 0/16 covered, 0 errors")
    XCTAssertEqual(monitor.check(goodPlay(1), at: 0), [])
    let wrong = monitor.check(goodPlay(2, screen: "downloads"), at: 1)
    XCTAssertEqual(wrong.map(\.rule), [.wrongScreen])
    monitor.check(record(3, .event, "playerDidFail", ["error": "other"]), at: 2)
    XCTAssertEqual(monitor.violations(at: 1), wrong)
    XCTAssertEqual(monitor.violations(at: 0), [])
    XCTAssertEqual(monitor.violations(at: 2).map(\.severity), [.warning])
    XCTAssertEqual(monitor.counts.errors, 1)
    XCTAssertEqual(monitor.headerText, "plan Podcasts v3: 5/16 covered, 1 error, 1 warning")
    XCTAssertEqual(monitor.coverage.seenCount, 5)
  }
}
