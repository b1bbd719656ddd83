import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// `validate` (text) tallies the violations as they are found, keeping per group only its count
/// and first examples: the bytes must be those of the report rendered from a run that kept them
/// all.
final class StreamedTextReportTests: StreamedReportTestCase {
  /// The tallied report's bytes and outcome beside the report rendered whole.
  @discardableResult
  private func compare(
    _ recordings: [String], bySource: Bool = false, failOn: Severity = .error,
    failOnUnreadable: Bool = false, file: StaticString = #filePath, line: UInt = #line
  ) throws -> ValidateRunner.Outcome {
    let (whole, tallied) = try compareTallied(
      recordings, format: .text, bySource: bySource, failOn: failOn, failOnUnreadable: failOnUnreadable,
      file: file, line: line
    ) {
      ValidateRunner.runText(
        plan: $0, recordings: $1, failOn: $2, failOnUnreadable: $3, bySource: $4, generated: $5)
    }
    // Written in chunks by the whole run too.
    try assertWritten(whole, equals: whole.output, file: file, line: line)
    XCTAssertEqual(tallied.report?.records, whole.report?.records, file: file, line: line)
    return whole
  }

  /// A recording a newer tagscope wrote, its records' `seq` repeating and going backwards.
  private func newerRecording() throws -> String {
    let records = [3, 3, 1, 2].map {
      RecordLineEncoder.line(record(UInt64($0), .userAction, "unplanned_newer", screen: "podcasts"))
    }
    let lines =
      [RecordLineEncoder.line(RecordingHeader(app: "A", version: 7, extra: ["schema": .string("v2")]))]
      + records
    let url = directory.appendingPathComponent("newer.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url.path
  }

  /// The demo's journeys (every kind, providers, screens, broken and passing tags) in three
  /// recordings, the second ending with an unreadable line and a record from a hostile source,
  /// the third newer than this tagscope with `seq` anomalies.
  func testTheTalliedReportIsTheWholeReportOnAVariedRun() throws {
    let (first, second) = try variedRecordings(
      hostileTag: "\u{1B}[31mred\u{2028}\u{202E}\"", hostileSource: "phone \u{1B}]0;title\u{07}")
    let newer = try newerRecording()
    for bySource in [false, true] {
      for failOn in [Severity.error, .warning] {
        let whole = try compare(
          [first, second, newer], bySource: bySource, failOn: failOn, failOnUnreadable: bySource)
        XCTAssertGreaterThan(whole.report?.violations.count ?? 0, 100, "a run with many violations")
        XCTAssertTrue(whole.output.contains("… and "), "groups past the examples")
        XCTAssertTrue(whole.output.contains("seq out of order"), whole.output)
        XCTAssertTrue(whole.output.contains("unreadable lines"), whole.output)
        XCTAssertTrue(whole.diagnostics.contains("newer than this tagscope"), whole.diagnostics)
      }
    }
    let clean = try writeRecording([goodPlay(1), goodPlay(2)], named: "clean.jsonl", in: directory)
    XCTAssertEqual(try compare([clean]).exitCode, 0)
  }

  /// Unplanned tags and broken planned ones, thousands of each, some below --fail-on, many tags
  /// seen once.
  func testManyViolationsPerGroup() throws {
    var records: [Record] = []
    for seq in 1...4_000 {
      switch seq % 4 {
      case 0:
        // Some tags in many records, the rest each in one: a report of many chunks.
        let name = seq % 8 == 0 ? "unplanned_\(seq % 50)" : "unplanned_once_\(seq)"
        records.append(record(UInt64(seq), .userAction, name, screen: "podcasts"))
      case 1:
        var broken = goodPlay(UInt64(seq), screen: "podcasts")
        broken.outputs[0] = sent("firebase", "wrong_\(seq % 7)", ["podcast_title": "T"])
        records.append(broken)
      case 2: records.append(record(UInt64(seq), .event, "playerDidFail", ["error": "boom"]))
      default: records.append(goodPlay(UInt64(seq)))
      }
    }
    let file = try writeRecording(records, named: "many.jsonl", in: directory)
    for failOn in [Severity.error, .warning] {
      let whole = try compare([file], failOn: failOn)
      XCTAssertGreaterThan(whole.report?.violations.count ?? 0, 2_000)
      XCTAssertGreaterThan(whole.output.utf8.count, TextReport.Lines.chunk, "written in several chunks")
    }
  }

  /// However many violations are added, the tally keeps at most ``TextReport/examples`` per group.
  func testTheTallyKeepsAFewExamplesPerGroup() throws {
    let plan = try samplePlan()
    var records: [Record] = []
    for seq in 1...3_000 {
      var broken = goodPlay(UInt64(seq), screen: "podcasts")
      broken.outputs[0] = sent("firebase", "wrong", ["podcast_title": "T"])
      records.append(broken)
      records.append(record(UInt64(seq), .userAction, "unplanned_\(seq % 10)", screen: "podcasts"))
    }
    let (violations, _) = validate(records, plan: plan)
    var tally = TextTally()
    for violation in violations { tally.add(violation, at: nil) }
    XCTAssertGreaterThanOrEqual(violations.count, 6_000)
    XCTAssertEqual(tally.severities.total, violations.count)
    XCTAssertEqual(tally.groups.map(\.count).reduce(0, +), violations.count)
    XCTAssertLessThan(tally.groups.count, 30, "groups, not violations")
    for group in tally.groups {
      XCTAssertLessThanOrEqual(group.examples.count, TextReport.examples)
      XCTAssertEqual(group.examples.count, min(group.count, TextReport.examples))
    }
  }
}
