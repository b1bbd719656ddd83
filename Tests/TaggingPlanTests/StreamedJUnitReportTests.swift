import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// `validate --format junit` counts the violations as they are found, keeping none but a few
/// messages per planned item: the bytes must be those of the report rendered from a run that kept
/// them all.
final class StreamedJUnitReportTests: StreamedReportTestCase {
  /// The tallied report's bytes and outcome beside the report rendered whole.
  @discardableResult
  private func compare(
    _ recordings: [String], bySource: Bool = false, failOn: Severity = .error,
    failOnUnreadable: Bool = false, file: StaticString = #filePath, line: UInt = #line
  ) throws -> ValidateRunner.Outcome {
    let (whole, tallied) = try compareTallied(
      recordings, format: .junit, bySource: bySource, failOn: failOn, failOnUnreadable: failOnUnreadable,
      file: file, line: line
    ) {
      ValidateRunner.runJUnit(
        plan: $0, recordings: $1, failOn: $2, failOnUnreadable: $3, bySource: $4, generated: $5)
    }
    // And through a pipe.
    let pipe = Pipe()
    try tallied.writeOutput(to: pipe.fileHandleForWriting)
    try pipe.fileHandleForWriting.close()
    XCTAssertEqual(
      String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), whole.output,
      file: file, line: line)
    XCTAssertEqual(tallied.report?.records, whole.report?.records, file: file, line: line)
    return whole
  }

  /// The demo's journeys (every kind, providers, screens, broken and passing tags) in two
  /// recordings, the second ending with an unreadable line and a record from a hostile source.
  func testTheTalliedReportIsTheWholeReportOnAVariedRun() throws {
    let (first, second) = try variedRecordings(
      hostileTag: "</testcase><x>\u{2028}&amp;\u{202E}\"", hostileSource: "phone \"<img>\"")
    for bySource in [false, true] {
      for failOn in [Severity.error, .warning] {
        let whole = try compare(
          [first, second], bySource: bySource, failOn: failOn, failOnUnreadable: bySource)
        XCTAssertGreaterThan(whole.report?.violations.count ?? 0, 100, "a run with many violations")
        XCTAssertTrue(whole.output.contains("… and "), "items past the listed messages")
      }
    }
  }

  /// Unplanned tags and broken planned ones, thousands of each, some below --fail-on.
  func testManyViolationsPerItemAndUnplannedTags() throws {
    var records: [Record] = []
    for seq in 1...4_000 {
      switch seq % 4 {
      case 0: records.append(record(UInt64(seq), .userAction, "unplanned_\(seq % 50)", screen: "podcasts"))
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
    }
  }

  /// However many violations are added, the tally keeps at most the listed messages per item.
  func testTheTallyKeepsAFewMessagesPerItem() throws {
    let plan = try samplePlan()
    var records: [Record] = []
    for seq in 1...3_000 {
      var broken = goodPlay(UInt64(seq), screen: "podcasts")
      broken.outputs[0] = sent("firebase", "wrong", ["podcast_title": "T"])
      records.append(broken)
      records.append(record(UInt64(seq), .userAction, "unplanned_\(seq)", screen: "podcasts"))
    }
    let (violations, validator) = validate(records, plan: plan)
    var tally = JUnitTally(planned: validator.coverage.planned, failOn: .warning)
    for violation in violations { tally.add(violation, at: nil) }
    XCTAssertEqual(tally.total, violations.count)
    XCTAssertGreaterThanOrEqual(violations.count, 6_000)
    let kept =
      tally.items.map { $0.found.listed.count }.reduce(0, +) + tally.unplanned.failing.listed.count
      + tally.unplanned.others.listed.count + tally.unattached.failing.listed.count
      + tally.unattached.others.listed.count
    XCTAssertLessThanOrEqual(kept, (tally.items.count + 4) * JUnitReport.messagesPerFailure)
    XCTAssertEqual(tally.unplanned.failing.count + tally.unplanned.others.count, 3_000)
  }
}
