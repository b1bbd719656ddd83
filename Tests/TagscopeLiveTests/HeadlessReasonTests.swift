import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

@testable import TagscopeLive

/// Headless `listen` without a plan says why a record's line ends in `✗N`: one indented line per
/// provider rule its outputs broke (before, the count came with no reason).
final class HeadlessReasonTests: XCTestCase {
  private func update(_ record: Record, planViolations: [[PlanViolation]] = []) -> LiveUpdate {
    LiveUpdate(events: [.records([record])], violations: planViolations, firstPosition: 0, writeFailure: nil)
  }

  private var droppedEvent: Record {
    let violation = RecordViolation(
      rule: "firebase.event-name-length", message: "event name longer than 40 characters\u{1b}[2J",
      consequence: "dropped")
    return Record(
      seq: 1, time: Date(timeIntervalSince1970: 1_764_000_000), kind: .event,
      name: "a_very_long_event_name_that_firebase_drops_at_once",
      outputs: [ProviderOutput(provider: "firebase", status: .sent, violations: [violation])],
      source: "Podcasts@sim")
  }

  func testWithoutAPlanEachProviderRuleBrokenIsSaidUnderItsRecord() {
    let lines = HeadlessLines(update(droppedEvent))
    XCTAssertEqual(lines.output.count, 2, "\(lines.output)")
    XCTAssertTrue(lines.output[0].hasSuffix("✗1"), lines.output[0])
    XCTAssertEqual(
      lines.output.dropFirst().first,
      #"  ✗ dropped firebase.event-name-length: event name longer than 40 characters\e[2J"#)
  }

  func testWithAPlanThePlansViolationsAreSaidInstead() {
    let lines = HeadlessLines(update(droppedEvent, planViolations: [[]]))
    XCTAssertEqual(lines.output.count, 1, "a plan's check names provider rules itself: \(lines.output)")
  }
}
