import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// What the streamed report tests share: a temporary folder of their own, a fixed generation
/// date, and the sample plan written there.
class StreamedReportTestCase: XCTestCase {
  var directory: URL!
  let generated = Date(timeIntervalSince1970: 1_764_000_000)

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "streamed-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The sample plan's file, written in the folder.
  func planPath() throws -> String {
    let url = directory.appendingPathComponent("plan.yaml")
    try Data(samplePlanYAML.utf8).write(to: url)
    return url.path
  }

  /// The demo's journeys (every kind, providers, screens, broken and passing tags) in two
  /// recordings, written in the folder: the second ends with a record named `hostileTag` from the
  /// source `hostileSource` (text the report must escape), one blocked by consent, a repeat of an
  /// earlier `seq` and an unreadable line.
  func variedRecordings(hostileTag: String, hostileSource: String) throws -> (first: String, second: String) {
    var hostile = record(9_001, .userAction, hostileTag, ["x": .int(1)], screen: "podcasts")
    hostile.source = hostileSource
    var blocked = goodPlay(9_002, screen: "favorites")
    blocked.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    let first = try writeRecording(
      try demoRecords(seed: 3, count: 1_500), named: "first.jsonl", in: directory)
    let second = try writeRecording(
      try demoRecords(seed: 4, count: 800) + [hostile, blocked, goodPlay(3)], named: "second.jsonl",
      in: directory, trailer: "{\"seq\": 1, bad\n")
    return (first, second)
  }

  /// The sample plan, loaded from its file.
  func samplePlan() throws -> Plan { try PlanLoader.load(contentsOf: try planPath()) }

  /// The report in `format` rendered whole and the one `tallied` makes for the same run: asserts
  /// the same bytes (as returned, and as written to a file), exit code and diagnostics, and no
  /// violation kept by the tallied run; returns both for the checks of each format.
  func compareTallied(
    _ recordings: [String], format: ReportFormat, bySource: Bool, failOn: Severity, failOnUnreadable: Bool,
    file: StaticString, line: UInt,
    tallied run: (Plan, [String], Severity, Bool, Bool, Date) -> ValidateRunner.Outcome
  ) throws -> (whole: ValidateRunner.Outcome, tallied: ValidateRunner.Outcome) {
    let plan = try samplePlan()
    let whole = ValidateRunner.run(
      plan: plan, recordings: recordings, format: format, failOn: failOn, failOnUnreadable: failOnUnreadable,
      bySource: bySource, generated: generated)
    let tallied = run(plan, recordings, failOn, failOnUnreadable, bySource, generated)
    XCTAssertEqual(tallied.report?.violations.count, 0, "no violation kept", file: file, line: line)
    XCTAssertFalse(whole.output.isEmpty, file: file, line: line)
    XCTAssertEqual(tallied.output, whole.output, file: file, line: line)
    try assertWritten(tallied, equals: whole.output, file: file, line: line)
    XCTAssertEqual(tallied.exitCode, whole.exitCode, file: file, line: line)
    XCTAssertEqual(tallied.diagnostics, whole.diagnostics, file: file, line: line)
    return (whole, tallied)
  }

  /// `outcome`'s output, written in chunks to a file of its own, reads back as `expected`.
  func assertWritten(
    _ outcome: ValidateRunner.Outcome, equals expected: String, file: StaticString, line: UInt
  ) throws {
    let url = directory.appendingPathComponent("written-\(UUID().uuidString)")
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    try outcome.writeOutput(to: handle)
    try handle.close()
    XCTAssertEqual(
      String(decoding: try Data(contentsOf: url), as: UTF8.self), expected, file: file, line: line)
  }
}
