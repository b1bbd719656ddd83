import AnalyticsHub
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import TagscopeTestSupport
import XCTest

/// Journey findings reach the verdicts every other finding reaches: `tagscope validate`'s runner
/// (whose cache of identical lines must not hide a double-fire), the JSON report's evidence, the
/// monitor behind the debugger's marks and the query API, and the demo's tour.
final class JourneyVerdictTests: XCTestCase {
  private static let plan = """
    plan: J
    actions:
      tap: {duplicateWithin: 500ms}
      pay: {after: [tap]}
    """

  /// `count` taps 100ms apart with the same properties, then a pay in another session.
  private func records(taps count: Int) -> [Record] {
    var records = (1...count).map { seq in
      var tap = record(UInt64(seq), .userAction, "tap", ["id": "p1"])
      tap.time = Date(timeIntervalSince1970: 1_800_000_000 + Double(seq) / 10)
      tap.context.session = RecordSession(id: "s-1", state: "unauthenticated", user: nil, properties: [:])
      return tap
    }
    var pay = record(UInt64(count + 1), .userAction, "pay")
    pay.context.session = RecordSession(id: "s-2", state: "unauthenticated", user: nil, properties: [:])
    records.append(pay)
    return records
  }

  func testValidateFindsDuplicatesAmongIdenticalLinesAndReportsBothRecords() throws {
    let directory = try TemporaryDirectory()
    let path = try writeRecording(records(taps: 3), named: "taps.jsonl", in: directory.url)
    let plan = try PlanLoader.load(yaml: Self.plan, file: "j.yaml")
    let report = try ValidateRunner.validate(plan: plan, recordings: [path])
    XCTAssertEqual(report.violations.map(\.seq), [2, 3, 4])
    XCTAssertEqual(report.violations.map(\.rule), [.duplicate, .duplicate, .outOfOrder])
    XCTAssertEqual(report.sites.map(\.line), [3, 4, 5])
    let json = JSONReport.render(report)
    XCTAssertTrue(
      json.contains(
        #""expected":{"rule":"duplicateWithin: 500ms","expects":"no repeat with the same properties within 500ms"}"#
      ),
      json)
    XCTAssertTrue(json.contains(#""duplicates":{"seq":1,"name":"tap","#), json)
    XCTAssertTrue(json.contains(#""needed":{"seq":3,"name":"tap","#), json)
  }

  func testTheMonitorMarksJourneyFindingsAtTheirPositions() throws {
    let plan = try PlanLoader.load(yaml: Self.plan, file: "j.yaml")
    let marked = LockedPositions()
    let monitor = PlanMonitor(plan: plan, rules: .allProviders) { position, count in
      marked.add(position, count)
    }
    for (position, record) in records(taps: 2).enumerated() { monitor.check(record, at: position) }
    XCTAssertEqual(marked.all, [[1, 1], [2, 1]])
    XCTAssertEqual(monitor.segmentViolations.map(\.violation.rule), [.duplicate, .outOfOrder])
    XCTAssertEqual(
      monitor.coverageStates.first { $0.item.id == "action tap" }?.state,
      .failing(rules: [.duplicate], broken: 1, records: 2))
  }

  func testTheDemoPlanWithoutJourneysHasNone() throws {
    XCTAssertTrue(try PlanLoader.load(yaml: DemoPlan.yaml, file: "d.yaml").hasJourneys)
    let without = try PlanLoader.load(yaml: DemoPlan.yamlWithoutJourneys, file: "d.yaml")
    XCTAssertFalse(without.hasJourneys)
    XCTAssertEqual(without.funnels, [])
  }
}

/// Positions and counts a monitor marked, from any thread.
private final class LockedPositions: @unchecked Sendable {
  private let lock = NSLock()
  private var marks: [[Int]] = []

  func add(_ position: Int, _ count: Int) {
    lock.lock()
    marks.append([position, count])
    lock.unlock()
  }

  var all: [[Int]] {
    lock.lock()
    defer { lock.unlock() }
    return marks
  }
}
