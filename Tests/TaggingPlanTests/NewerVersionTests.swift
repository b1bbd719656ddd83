import Foundation
import TagscopeDiff
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// A recording a newer tagscope wrote: `validate`, `diff` and `plan infer` each warn once per
/// file, naming it and both versions, and read the records they can.
final class NewerVersionTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("newer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  private func write(_ name: String, version: Int) throws -> String {
    let url = directory.appendingPathComponent(name)
    let records = (1...3).map {
      RecordLineEncoder.line(
        Record(seq: UInt64($0), time: Date(timeIntervalSince1970: 1_800_000_000), kind: .screen, name: "home")
      )
    }
    // A field this version does not know, as a newer writer would add.
    let lines =
      [RecordingHeader(app: "A", version: version, extra: ["schema": .string("v2")])].map(
        RecordLineEncoder.line)
      + records
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url.path
  }

  private func expected(_ path: String) -> String {
    "\(path): warning: format version 7 is newer than this tagscope reads (1): reading the fields it knows; "
      + "update tagscope to see the rest"
  }

  func testEveryReaderWarnsOncePerFileAndReadsTheRecords() throws {
    let newer = try write("newer.jsonl", version: 7)
    let current = try write("current.jsonl", version: 1)

    let diff = DiffRunner.run(base: current, new: newer, format: .text, failOn: [])
    XCTAssertEqual(diff.diagnostics, expected(newer) + "\n")
    XCTAssertEqual(diff.exitCode, 0, diff.output)

    var inference = PlanInference()
    try inference.read(path: newer)
    try inference.read(path: current)
    XCTAssertEqual(inference.warnings, [expected(newer)])
    XCTAssertEqual(inference.records, 3 + 3)

    let plan = try PlanLoader.load(yaml: "plan: P\nversion: 1\nscreens:\n  home: {}\n", file: "p.yaml")
    let outcome = ValidateRunner.run(plan: plan, recordings: [newer, current], format: .text, failOn: .error)
    XCTAssertEqual(outcome.diagnostics.components(separatedBy: "newer than this tagscope").count - 1, 1)
    XCTAssertTrue(outcome.diagnostics.contains(expected(newer)), outcome.diagnostics)
    XCTAssertEqual(outcome.report?.records, 6)
  }
}
