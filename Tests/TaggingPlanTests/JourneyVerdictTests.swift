import AnalyticsHub
import Foundation
import PodcastDemo
import TaggingPlan
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TaggingPlanReports

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

  /// `validate` answers identical lines from its cache with journey rules too (they run again on
  /// the remembered record with each line's `seq` and `time`), and finds exactly what checking
  /// every record on its own finds: sessions, times and repeats are mixed so that identical lines
  /// get different journey findings.
  func testTheLineCacheKeepsJourneyFindingsExact() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: J
        actions:
          tap: {duplicateWithin: 500ms}
          pay: {after: [tap]}
          open: {once: session}
        funnels:
          buy: {steps: [open, tap, pay], maxGap: 2s}
        """, file: "j.yaml")
    let names = ["open", "tap", "tap", "pay", "tap", "open", "pay"]
    var time = 1_800_000_000.0
    let records = (1...700).map { seq -> Record in
      var tap = record(UInt64(seq), .userAction, names[seq % names.count], ["id": seq % 3 == 0 ? "p2" : "p1"])
      time += seq % 5 == 0 ? 3 : 0.2
      tap.time = Date(timeIntervalSince1970: time)
      tap.context.session = RecordSession(
        id: "s-\(seq / 60)", state: "unauthenticated", user: seq % 4 == 0 ? "u-\\\(seq % 3)" : nil,
        properties: [:])
      // Lines without a session beside identical ones with: those are decoded.
      if seq % 11 == 0 { tap.context.session = nil }
      return tap
    }
    var expected = PlanValidator(plan: plan, rules: .allProviders)
    let oneByOne = records.flatMap { expected.validate($0) }
    XCTAssertGreaterThan(Set(oneByOne.map(\.rule)).count, 2, "the recording must break several journey rules")

    var lines = LineValidator(plan: plan)
    var violations: [PlanViolation] = []
    var bytes = Array(
      ([RecordLineEncoder.line(RecordingHeader(app: "A"))] + records.map { RecordLineEncoder.line($0) })
        .joined(separator: "\n").utf8)
    let summary = bytes.withUnsafeMutableBufferPointer { buffer in
      RecordingScanner.validate(UnsafeBufferPointer(buffer), file: "r.jsonl", with: &lines, into: &violations)
    }
    XCTAssertEqual(summary.records, 700)
    XCTAssertGreaterThan(lines.hits, 400, "identical lines are answered from the cache")
    XCTAssertEqual(violations.map(\.seq), oneByOne.map(\.seq))
    XCTAssertEqual(violations.map(\.rule), oneByOne.map(\.rule))
    XCTAssertEqual(violations.map(\.message), oneByOne.map(\.message))
    XCTAssertEqual(lines.validator.coverage.counts, expected.coverage.counts)
    XCTAssertEqual(
      lines.validator.coverage.items.indices.map { lines.validator.coverage.state(at: $0) },
      expected.coverage.items.indices.map { expected.coverage.state(at: $0) })
  }

  /// A funnel the recording ends in the middle of is not a violation (the recording stopped, not
  /// the session) but is noted with its device, session, step and last record, never silent.
  func testValidateNotesTheFunnelsARecordingEndsInTheMiddleOf() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: J
        actions: {open: {}, tap: {}, pay: {}}
        funnels:
          buy: {steps: [open, tap, pay]}
        """, file: "j.yaml")
    let names = ["open", "tap", "pay", "open", "tap"]
    let records = names.enumerated().map { index, name -> Record in
      var tap = record(UInt64(index + 1), .userAction, name)
      tap.context.session = RecordSession(id: "s-1", state: "unauthenticated", user: nil, properties: [:])
      return tap
    }
    let directory = try TemporaryDirectory()
    let path = try writeRecording(records, named: "buy.jsonl", in: directory.url)
    var notes: [String] = []
    let report = try ValidateRunner.validate(plan: plan, recordings: [path]) { notes.append($0) }
    XCTAssertEqual(report.violations, [])
    XCTAssertEqual(notes.filter { $0.contains("funnel") }.count, 1, "\(notes)")
    let note = try XCTUnwrap(notes.first { $0.contains("funnel") })
    XCTAssertTrue(
      note.hasPrefix(
        "\(path): note: funnel buy unfinished at the end of the recording: step 3 of 3 (pay) not reached after #5 tap at "
      ), note)
    XCTAssertTrue(note.hasSuffix("(session s-1)"), note)
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

  func testTheDemoPlanWithoutSessionChecksHasNone() throws {
    let full = try PlanLoader.load(yaml: DemoPlan.yaml, file: "d.yaml")
    XCTAssertTrue(full.hasJourneys)
    XCTAssertNotNil(full.consent)
    XCTAssertTrue(full.privacy.scans)
    let without = try PlanLoader.load(yaml: DemoPlan.yamlWithoutSessionChecks, file: "d.yaml")
    XCTAssertFalse(without.hasJourneys)
    XCTAssertFalse(without.hasSequenceRules)
    XCTAssertEqual(without.funnels, [])
    XCTAssertNil(without.consent)
    XCTAssertFalse(without.privacy.scans)
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
