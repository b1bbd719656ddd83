import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// Provider rules are checked on every recorded call, whether or not the recording carries the
/// hub's own findings, and a finding the hub recorded is reported once.
final class ProviderRuleRecheckTests: XCTestCase {
  private let longName = String(repeating: "a", count: 45)

  private func unplanned(_ seq: UInt64, recorded: [RecordViolation] = []) -> Record {
    var output = sent("firebase", longName)
    output.violations = recorded
    return record(seq, .userAction, "nope", outputs: [output])
  }

  func testACallBreakingARuleIsReportedWithOrWithoutTheHubsFinding() throws {
    let plan = try samplePlan()
    let bare = validate([unplanned(1)], plan: plan).0.filter { $0.rule == .providerRule }
    XCTAssertEqual(bare.count, 1)
    XCTAssertTrue(
      bare[0].message.contains("firebase rule firebase.event-name-length broken"), bare[0].message)
    XCTAssertEqual(bare[0].provider, "firebase")
    XCTAssertEqual(bare[0].comparison.rows.first?.expected, "firebase.event-name-length")

    let hub = RecordViolation(
      rule: "firebase.event-name-length", message: "the hub's words", consequence: "replaced", callIndex: 0)
    let recorded = validate([unplanned(2, recorded: [hub])], plan: plan).0.filter { $0.rule == .providerRule }
    XCTAssertEqual(
      recorded.map(\.message), ["nope: firebase rule firebase.event-name-length broken: the hub's words"])
  }

  func testAnotherToolsFindingIsKeptBesideTheRulesOwn() throws {
    let other = RecordViolation(rule: "vendor.custom", message: "custom", consequence: "dropped")
    let found = validate([unplanned(1, recorded: [other])], plan: try samplePlan()).0
      .filter { $0.rule == .providerRule }.map(\.message)
    XCTAssertEqual(found.count, 2)
    XCTAssertTrue(found[0].hasSuffix("vendor.custom broken: custom"))
    XCTAssertTrue(found[1].contains("firebase.event-name-length"))
  }

  func testCountsRunAcrossRecordsOfOneRecordingAndRestartWithTheNext() throws {
    let plan = try PlanLoader.load(yaml: "plan: P\nstates: {}\n", file: "p.yaml")
    let events = (1...501).map {
      record(UInt64($0), .sessionUpdate, "session", outputs: [sent("firebase", "event_\($0)")])
    }
    // 501 event types in one recording: the 501st breaks Firebase's 500.
    let found = validate(events, plan: plan).0
    XCTAssertEqual(found.map(\.seq), [501])
    XCTAssertTrue(found.first?.message.contains("firebase.event-type-count") ?? false)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rules-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let header = RecordLineEncoder.line(RecordingHeader(app: "P", device: "d"))
    func write(_ name: String, _ records: [Record]) throws -> String {
      let url = directory.appendingPathComponent(name)
      try Data(([header] + records.map(RecordLineEncoder.line)).joined(separator: "\n").utf8).write(to: url)
      return url.path
    }
    // Each recording is an app instance of its own: 500 types each, nothing broken; the second
    // one's records are not taken from the first one's results.
    let first = try write("first.jsonl", Array(events.prefix(500)))
    let second = try write("second.jsonl", Array(events.suffix(500)))
    let report = try ValidateRunner.validate(plan: plan, recordings: [first, second])
    XCTAssertEqual(report.violations, [])
    let whole = try write("whole.jsonl", events)
    XCTAssertEqual(try ValidateRunner.validate(plan: plan, recordings: [whole]).violations.map(\.seq), [501])
  }

  func testTheFastPathReportsTheSameAsCheckingEveryRecord() throws {
    let plan = try samplePlan()
    var records: [Record] = []
    for seq in 1...40 {
      var play = goodPlay(UInt64(seq), screen: seq.isMultiple(of: 2) ? "favorites" : "podcasts")
      if seq.isMultiple(of: 3) { play.outputs[0].calls[0].name = longName }
      records.append(play)
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rules-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("r.jsonl")
    let header = RecordLineEncoder.line(RecordingHeader(app: "P", device: "d"))
    try Data(([header] + records.map(RecordLineEncoder.line)).joined(separator: "\n").utf8).write(to: url)
    let report = try ValidateRunner.validate(plan: plan, recordings: [url.path])
    let (violations, validator) = validate(records, plan: plan)
    XCTAssertEqual(report.violations, violations)
    XCTAssertEqual(report.coverage, validator.coverage)
    XCTAssertEqual(report.violations.filter { $0.rule == .providerRule }.count, 13)
  }
}
