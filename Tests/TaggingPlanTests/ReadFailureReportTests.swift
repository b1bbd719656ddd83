import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

#if canImport(Glibc)
  import Glibc
#endif

/// A recording whose reading fails part way (here standard input, a socket reset by its peer
/// after the records it held): the records read are validated, the error is one of the report's
/// problems at the line it stopped before, the next recording is read, and the run exits 2 —
/// the same bytes whether the report is rendered whole, streamed (JSON) or tallied (JUnit, text).
final class ReadFailureReportTests: XCTestCase {
  private var directory: URL!
  private let generated = Date(timeIntervalSince1970: 1_764_000_000)

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "read-failure-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Runs `body` with standard input a socket that holds `bytes`, then fails with ECONNRESET
  /// (its peer closed with bytes of its own unread).
  private func withFailingStandardInput<T>(_ bytes: [UInt8], _ body: () -> T) throws -> T {
    var pair: [Int32] = [0, 0]
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(pair[1], $0.baseAddress, $0.count) }
      XCTAssertGreaterThan(count, 0)
      written += max(count, 0)
      if count <= 0 { break }
    }
    XCTAssertEqual(Glibc.write(pair[0], "x", 1), 1)
    close(pair[1])
    let saved = dup(0)
    XCTAssertEqual(dup2(pair[0], 0), 0)
    close(pair[0])
    defer {
      dup2(saved, 0)
      close(saved)
    }
    return body()
  }

  private func recordingBytes(_ records: [Record]) -> [UInt8] {
    let header = RecordingHeader(app: "Podcasts", device: "socket")
    return Array(
      (([RecordLineEncoder.line(header)] + records.map(RecordLineEncoder.line)).joined(separator: "\n") + "\n")
        .utf8)
  }

  private func brokenPlays(_ count: Int) -> [Record] {
    (1...count).map { seq in
      var broken = goodPlay(UInt64(seq), screen: "podcasts")
      broken.outputs[0] = sent("firebase", "wrong", ["podcast_title": "T"])
      return broken
    }
  }

  func testTheReportRecordsTheReadErrorAndGoesOnInEveryForm() throws {
    let plan = try samplePlan()
    let bytes = recordingBytes(brokenPlays(30))
    let after = try writeRecording([goodPlay(1), goodPlay(2)], named: "after.jsonl", in: directory)
    let recordings = ["-", after]
    let whole = try withFailingStandardInput(bytes) {
      ValidateRunner.run(
        plan: plan, recordings: recordings, format: .json, failOn: .error, generated: generated)
    }
    var streamedBytes: [UInt8] = []
    let streamed = try withFailingStandardInput(bytes) {
      ValidateRunner.runStreamingJSON(
        plan: plan, recordings: recordings, failOn: .error, generated: generated
      ) {
        streamedBytes.append(contentsOf: $0)
      }
    }
    XCTAssertEqual(whole.exitCode, 2, whole.diagnostics)
    XCTAssertEqual(streamed.exitCode, 2)
    XCTAssertEqual(String(decoding: streamedBytes, as: UTF8.self), whole.output)
    XCTAssertEqual(streamed.diagnostics, whole.diagnostics)
    XCTAssertEqual(whole.report?.records, 32, "the 30 records read and the next recording's 2")

    let parsed = try JSONSerialization.jsonObject(with: Data(streamedBytes)) as? [String: Any]
    let problems = try XCTUnwrap(parsed?["problems"] as? [[String: Any]])
    XCTAssertEqual(problems.count, 1)
    XCTAssertEqual(problems.first?["file"] as? String, "-")
    XCTAssertEqual(problems.first?["line"] as? Int, 32, "the line after the header and 30 records")
    let message = try XCTUnwrap(problems.first?["reason"] as? String)
    XCTAssertTrue(message.contains("read failed"), message)
    XCTAssertTrue(message.hasSuffix("the rest of the recording was not read"), message)
    XCTAssertEqual((parsed?["violations"] as? [Any])?.count, whole.report?.violations.count)
    XCTAssertTrue(whole.diagnostics.contains("-:32: read failed"), whole.diagnostics)
    XCTAssertFalse(whole.diagnostics.contains("(line skipped)"), whole.diagnostics)

    let wholeJUnit = try withFailingStandardInput(bytes) {
      ValidateRunner.run(
        plan: plan, recordings: recordings, format: .junit, failOn: .error, generated: generated)
    }
    let tallied = try withFailingStandardInput(bytes) {
      ValidateRunner.runJUnit(plan: plan, recordings: recordings, failOn: .error, generated: generated)
    }
    XCTAssertEqual(tallied.exitCode, 2)
    XCTAssertEqual(tallied.output, wholeJUnit.output)
    XCTAssertTrue(tallied.output.contains("<error type=\"readFailure\""), tallied.output)

    let wholeText = try withFailingStandardInput(bytes) {
      ValidateRunner.run(
        plan: plan, recordings: recordings, format: .text, failOn: .error, generated: generated)
    }
    let talliedText = try withFailingStandardInput(bytes) {
      ValidateRunner.runText(plan: plan, recordings: recordings, failOn: .error, generated: generated)
    }
    XCTAssertEqual(talliedText.exitCode, 2)
    XCTAssertEqual(talliedText.output, wholeText.output)
    XCTAssertEqual(talliedText.diagnostics, wholeText.diagnostics)
    XCTAssertTrue(talliedText.output.contains("-:32: read failed"), talliedText.output)
  }
}
