import Foundation
import TagscopeDiff
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// Records whose `seq` repeats or goes backwards within their run: `validate`, `diff` and
/// `plan infer` note them in the same words, one by one up to ten per file, then one counting line.
final class SequenceNotesTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "order-notes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  /// A recording of `seqs` (with their sources) in file order.
  private func write(_ name: String, seqs: [(UInt64, String?)]) throws -> String {
    let url = directory.appendingPathComponent(name)
    let records = seqs.map { seq, source in
      var record = Record(
        seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .screen, name: "home")
      record.source = source
      return RecordLineEncoder.line(record)
    }
    let lines = [RecordLineEncoder.line(RecordingHeader(app: "A"))] + records
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url.path
  }

  private func seqNotes(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter { $0.contains(" seq ") }
  }

  func testValidateDiffAndInferNoteTheSameAnomalies() throws {
    // Line 2 is the first record: source a sends 1, 2, 3, then 2 and 3 again (lines 5 and 6);
    // source b's run is its own, so its 1 after a's 3 is no anomaly.
    let path = try write(
      "runs.jsonl", seqs: [(1, "a"), (2, "a"), (3, "a"), (2, "a"), (3, "a"), (1, "b"), (2, "b")])
    let clean = try write("clean.jsonl", seqs: [(1, nil), (2, nil)])
    let expected = [
      "\(path):5: seq 2 repeats an earlier record's (source a) (kept in file order)",
      "\(path):6: seq 3 repeats an earlier record's (source a) (kept in file order)",
    ]

    let plan = try PlanLoader.load(yaml: "plan: P\nversion: 1\nscreens:\n  home: {}\n", file: "p.yaml")
    let validate = ValidateRunner.run(plan: plan, recordings: [path], format: .text, failOn: .error)
    XCTAssertEqual(seqNotes(validate.diagnostics), expected, validate.diagnostics)

    let diff = DiffRunner.run(base: clean, new: path, format: .text, failOn: [])
    XCTAssertEqual(seqNotes(diff.diagnostics), expected, diff.diagnostics)

    var inference = PlanInference()
    try inference.read(path: path)
    XCTAssertEqual(seqNotes(inference.warnings.joined(separator: "\n")), expected)
  }

  func testPastTenTheRestAreCountedInOneLine() throws {
    let seqs = [(UInt64(20), String?.none)] + (1...15).map { (UInt64($0 + 1), String?.none) }
    let path = try write("many.jsonl", seqs: seqs)
    var inference = PlanInference()
    try inference.read(path: path)
    let notes = seqNotes(inference.warnings.joined(separator: "\n"))
    XCTAssertEqual(notes.count, 11, "\(notes)")
    XCTAssertEqual(
      notes.last,
      "\(path): warning: 5 more records whose seq repeats, goes backwards or starts again "
        + "(0 repeated, 15 backwards, 0 restarts in all)")
    let diff = DiffRunner.run(base: path, new: path, format: .text, failOn: [])
    XCTAssertEqual(seqNotes(diff.diagnostics).count, 22, "ten and a count for each side")
  }
}
