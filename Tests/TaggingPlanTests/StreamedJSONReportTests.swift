import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// `validate --format json` writes its report as the violations are found, keeping none: the
/// bytes must be those of the report rendered from a run that kept them all.
final class StreamedJSONReportTests: StreamedReportTestCase {
  /// The streamed report's bytes and outcome beside the report rendered whole.
  private func compare(
    _ recordings: [String], bySource: Bool = false, failOn: Severity = .error, file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> ValidateRunner.Outcome {
    let plan = try PlanLoader.load(contentsOf: try planPath())
    let whole = ValidateRunner.run(
      plan: plan, recordings: recordings, format: .json, failOn: failOn, bySource: bySource,
      generated: generated)
    var bytes: [UInt8] = []
    let streamed = ValidateRunner.runStreamingJSON(
      plan: plan, recordings: recordings, failOn: failOn, bySource: bySource, generated: generated
    ) { bytes.append(contentsOf: $0) }
    XCTAssertTrue(streamed.written, file: file, line: line)
    XCTAssertEqual(streamed.output, "", "already written", file: file, line: line)
    XCTAssertEqual(String(decoding: bytes, as: UTF8.self), whole.output, file: file, line: line)
    XCTAssertEqual(streamed.exitCode, whole.exitCode, file: file, line: line)
    XCTAssertEqual(streamed.diagnostics, whole.diagnostics, file: file, line: line)
    XCTAssertEqual(streamed.report?.records, whole.report?.records, file: file, line: line)
    return whole
  }

  /// The demo's journeys (every kind, providers, screens, broken and passing tags) in two
  /// recordings, the second ending with an unreadable line and a record from a hostile source.
  func testTheStreamedReportIsTheWholeReportOnAVariedRun() throws {
    let (first, second) = try variedRecordings(
      hostileTag: "</td><script>\u{2028}&amp;\u{202E}", hostileSource: "phone \"<img>\"")
    for bySource in [false, true] {
      for failOn in [Severity.error, .warning] {
        let whole = try compare([first, second], bySource: bySource, failOn: failOn)
        XCTAssertGreaterThan(whole.report?.violations.count ?? 0, 100, "a run with many violations")
        XCTAssertEqual(whole.report?.problems.count, 1)
      }
    }
  }

  /// Distinct broken records between repeats of earlier ones: a streamed report lets each
  /// violation go once written, so the JSON it copies for repeats must still be its own.
  func testRepeatsAmongDistinctRecordsReadAsTheirOwn() throws {
    var records: [Record] = []
    for seq in 1...3_000 {
      if seq % 3 == 0 {
        var again = goodPlay(UInt64(seq), screen: "podcasts")
        again.outputs[0] = sent("firebase", "wrong_\(seq % 7)", ["podcast_title": "T"])
        records.append(again)
      } else {
        records.append(
          record(UInt64(seq), .userAction, "distinct_\(seq)", ["n": .int(seq)], screen: "podcasts"))
      }
    }
    let file = try writeRecording(records, named: "mixed.jsonl", in: directory)
    let whole = try compare([file])
    XCTAssertGreaterThanOrEqual(whole.report?.violations.count ?? 0, 3_000, "a violation at least per record")
  }

  /// A recording that cannot be read stops the run before any output, whatever its place.
  func testAnUnreadableRecordingStopsTheRunBeforeAnyOutput() throws {
    let first = try writeRecording([goodPlay(1)], named: "first.jsonl", in: directory)
    let missing = directory.appendingPathComponent("missing.jsonl").path
    var bytes: [UInt8] = []
    let outcome = ValidateRunner.runStreamingJSON(
      plan: try samplePlan(), recordings: [first, missing], failOn: .error, generated: generated
    ) { bytes.append(contentsOf: $0) }
    XCTAssertEqual(outcome.exitCode, 2)
    XCTAssertTrue(bytes.isEmpty)
    XCTAssertTrue(outcome.diagnostics.contains("missing.jsonl"), outcome.diagnostics)
  }

  /// When a later recording cannot be opened, the notes about the ones opened before it (a newer
  /// format) are still given, the same whether the report is streamed or rendered whole.
  func testNotesAboutEarlierRecordingsPrecedeTheOneThatCannotBeOpened() throws {
    let newer = directory.appendingPathComponent("newer.jsonl")
    let header =
      #"{"format":"tagscope-recording","version":2,"app":"A","started":"2026-11-21T10:00:00.000Z"}"#
    try Data((header + "\n").utf8).write(to: newer)
    let missing = directory.appendingPathComponent("missing.jsonl").path
    let plan = try samplePlan()
    let whole = ValidateRunner.run(
      plan: plan, recordings: [newer.path, missing], format: .json, failOn: .error, generated: generated)
    var bytes: [UInt8] = []
    let streamed = ValidateRunner.runStreamingJSON(
      plan: plan, recordings: [newer.path, missing], failOn: .error, generated: generated
    ) { bytes.append(contentsOf: $0) }
    XCTAssertEqual(streamed.exitCode, 2)
    XCTAssertEqual(whole.exitCode, 2)
    XCTAssertTrue(bytes.isEmpty)
    XCTAssertEqual(streamed.diagnostics, whole.diagnostics)
    let lines = streamed.diagnostics.split(separator: "\n")
    XCTAssertEqual(lines.count, 2, streamed.diagnostics)
    XCTAssertTrue(lines.first?.hasPrefix("\(newer.path): warning:") ?? false, streamed.diagnostics)
    XCTAssertTrue(lines.last?.contains("missing.jsonl") ?? false, streamed.diagnostics)
  }
}
