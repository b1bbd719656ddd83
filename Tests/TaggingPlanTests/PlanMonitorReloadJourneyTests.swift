import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// A plan reload re-checks a live session's records as they were first checked: the journeys start
/// afresh at each reset (`POST /reset`: ``PlanMonitor/startSegment(at:)``, a new app launch), so a
/// `once: app-launch` tag sent once per test is not `repeated` after the reload either.
final class PlanMonitorReloadJourneyTests: XCTestCase {
  private let yaml = """
    plan: J
    actions:
      launched: {once: app-launch}
      other:
    """

  func testAReloadStartsTheJourneysAfreshAtEachReset() throws {
    let plan = try PlanLoader.load(yaml: yaml, file: "j.yaml")
    let records = [
      journeyAction(1, "launched", at: 0, session: "s-1"),
      journeyAction(2, "other", at: 1, session: "s-1"),
      // POST /reset: test 2.
      journeyAction(3, "launched", at: 2, session: "s-2"),
      // POST /reset: test 3, which sends it twice.
      journeyAction(4, "launched", at: 3, session: "s-3"),
      journeyAction(5, "launched", at: 4, session: "s-3"),
    ]
    let monitor = PlanMonitor(plan: plan)
    for (position, record) in records.enumerated() {
      if position == 2 || position == 3 { monitor.startSegment(at: position) }
      monitor.check(record, at: position)
    }
    let before = records.indices.map { monitor.violations(at: $0).map(\.rule) }
    XCTAssertEqual(before, [[], [], [], [], [.repeated]])

    // The same plan reloaded (its file saved again), then one where `other` is once per launch too.
    let changes = try XCTUnwrap(monitor.reload(plan, record: { records[$0] }))
    XCTAssertEqual(changes.map(\.position), [])
    XCTAssertEqual(records.indices.map { monitor.violations(at: $0).map(\.rule) }, before)
    let stricter = try PlanLoader.load(
      yaml: yaml.replacingOccurrences(of: "other:", with: "other: {once: app-launch}"), file: "j.yaml")
    XCTAssertNotNil(monitor.reload(stricter, record: { records[$0] }))
    XCTAssertEqual(records.indices.map { monitor.violations(at: $0).map(\.rule) }, before)
    // The segment (from the last reset) keeps its own violations.
    XCTAssertEqual(monitor.segmentViolations.map(\.position), [4])
  }

  func testARecordCheckedAfterTheReloadIsInTheLatestLaunch() throws {
    let plan = try PlanLoader.load(yaml: yaml, file: "j.yaml")
    var records = [journeyAction(1, "launched", at: 0, session: "s-1")]
    let monitor = PlanMonitor(plan: plan)
    monitor.check(records[0], at: 0)
    monitor.startSegment(at: 1)
    XCTAssertNotNil(monitor.reload(plan, record: { records[$0] }))
    records.append(journeyAction(2, "launched", at: 1, session: "s-2"))
    XCTAssertEqual(monitor.check(records[1], at: 1), [])
    records.append(journeyAction(3, "launched", at: 2, session: "s-2"))
    XCTAssertEqual(monitor.check(records[2], at: 2).map(\.rule), [.repeated])
  }
}
