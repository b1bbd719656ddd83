import Foundation
import XCTest

/// Integers past 2^63 keep their digits from the recording to the report: before, `validate`
/// read 18446744073709551616 as the double 2^64, passed it against `maximum:
/// 18446744073709551615` (also 2^64) and wrote it back as `1.8446744073709552e+19`.
final class ExactNumberCommandTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exact-number-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  private func write(_ text: String, _ name: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  private func recording(above: String) -> String {
    #"{"format":"tagscope-recording","version":1,"app":"A","started":"2026-11-21T10:00:00.000Z"}"# + "\n"
      + #"{"seq":1,"time":"2026-11-21T10:00:01.000Z","kind":"event","name":"big","#
      + #""properties":{"above":\#(above),"below":-9223372036854775809},"context":{"history":[]},"outputs":[]}"#
      + "\n"
  }

  func testValidateJSONFlagsAndWritesTheDigits() throws {
    let plan = try write(
      """
      plan: Big
      events:
        big:
          properties:
            above: {type: integer, maximum: 18446744073709551615}
            below: {type: integer, minimum: -9223372036854775809}
      """, "plan.yaml")
    let over = try BuiltProducts.run(
      [
        "validate", "--plan", plan, "--format", "json",
        try write(recording(above: "18446744073709551616"), "over.jsonl"),
      ])
    XCTAssertEqual(over.status, 1, over.error)
    XCTAssertTrue(over.output.contains(#""value":18446744073709551616"#), over.output)
    XCTAssertTrue(over.output.contains(#""maximum":18446744073709551615"#), over.output)
    XCTAssertTrue(over.output.contains("property above is 18446744073709551616"), over.output)
    XCTAssertFalse(over.output.contains("e+19"), over.output)
    let edge = try BuiltProducts.run(
      [
        "validate", "--plan", plan, "--format", "json",
        try write(recording(above: "18446744073709551615"), "edge.jsonl"),
      ])
    XCTAssertEqual(edge.status, 0, edge.output)
    XCTAssertTrue(edge.output.contains(#""violations":[]"#), edge.output)
  }

  func testDiffReadsLargeIntegersAsNumbers() throws {
    let base = try write(recording(above: "18446744073709551616"), "base.jsonl")
    let new = try write(recording(above: "1"), "new.jsonl")
    let outcome = try BuiltProducts.run(["diff", base, new])
    XCTAssertEqual(outcome.status, 0, outcome.error)
    XCTAssertTrue(outcome.output.contains("no change"), outcome.output)
    XCTAssertEqual(outcome.error, "")
  }
}
