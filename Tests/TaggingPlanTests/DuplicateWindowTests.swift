import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// `duplicateWithin` keeps up to 1,024 different property sets per entry and device inside its
/// window, so a list's impressions do not hide a double-fire; past that it says the check was
/// partial, never passing silently (issue 47, report 23V gap 6).
final class DuplicateWindowTests: XCTestCase {
  private func tap(_ seq: UInt64, id: Int, at millis: Int64) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: Double(1_800_000_000_000 + millis) / 1000),
      kind: .userAction,
      name: "impression", properties: ["id": .string("p\(id)")],
      context: RecordContext(
        screen: "home", history: ["home"],
        session: RecordSession(id: "s1", state: "unauthenticated", properties: [:])))
  }

  private let plan = "plan: J\nactions:\n  impression: {duplicateWithin: 500ms}\n"

  /// 100 impressions in 500 ms, then the first one again: found (the audit's d9 had 9).
  func testADoubleFireAfterAHundredImpressionsIsFound() throws {
    let plan = try PlanLoader.load(yaml: plan, file: "d.yaml")
    var records = (0..<100).map { tap(UInt64($0 + 1), id: $0, at: Int64($0 * 4)) }
    records.append(tap(101, id: 0, at: 450))
    let found = try findingsBothWays(records, plan: plan)
    XCTAssertEqual(found.map(\.seq), [101])
    XCTAssertEqual(found.map(\.rule), [.duplicate])
    XCTAssertEqual(found.map(\.severity), [.error])
  }

  /// 2,000 different sets inside one window, then a repeat of the first: the repeat is not found
  /// (the first was forgotten), and a warning says where the check became partial.
  func testPastTheBoundTheCheckSaysItWasPartial() throws {
    let plan = try PlanLoader.load(yaml: plan, file: "d.yaml")
    var records = (0..<2_000).map { tap(UInt64($0 + 1), id: $0, at: Int64($0 / 10)) }
    records.append(tap(2_001, id: 0, at: 300))
    let found = try findingsBothWays(records, plan: plan)
    XCTAssertFalse(found.isEmpty, "a lost duplicate must not pass silently")
    XCTAssertEqual(Set(found.map(\.severity)), [.warning])
    XCTAssertEqual(found.first?.seq, 1_025)
    XCTAssertEqual(
      found.first?.message,
      "impression on home: duplicateWithin 500ms of impression checked only in part here: more than 1024 different "
        + "property sets within 500ms on this device, 513 of them forgotten (a repeat of one would not be "
        + "found) (plan line 3)")
    var validator = PlanValidator(plan: plan)
    var remembered = 0
    for record in records {
      _ = validator.validate(record)
      remembered = max(remembered, validator.journeyState.remembered)
    }
    XCTAssertLessThanOrEqual(remembered, 1_025)
  }
}
