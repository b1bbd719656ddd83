import Foundation
import XCTest

/// Every command that takes a recording reads a pipe or FIFO (`<(zcat r.jsonl.gz)`) as it reads a
/// file: `validate` in each format opened its recordings twice (the header first, then the rest), so
/// a FIFO's second opening started mid-stream: "line 1 is not a recording header", 0 records.
final class ReadOnceInputTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "read-once-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    releaseFIFOs()
    try? FileManager.default.removeItem(at: directory)
  }

  /// A recording of three `play` actions, the second without its required `title`.
  private static let recording =
    #"{"format":"tagscope-recording","version":1,"app":"A","started":"2026-11-21T10:00:00.000Z"}"# + "\n"
    + (1...3).map { seq in
      let properties = seq == 2 ? "{}" : #"{"title":"t"}"#
      return #"{"seq":\#(seq),"time":"2026-11-21T10:00:0\#(seq).000Z","kind":"userAction","name":"play","#
        + #""properties":\#(properties),"context":{},"outputs":[]}"#
    }.joined(separator: "\n") + "\n"

  private var fifos: [String] = []

  /// A FIFO that gives the recording once to the first reader that opens it, then an empty input
  /// to a second one (so a command opening it twice reads nothing there, rather than waiting).
  private func fifo(_ name: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    XCTAssertEqual(mkfifo(path, 0o600), 0)
    fifos.append(path)
    let bytes = Array(Self.recording.utf8)
    Thread.detachNewThread {
      // Each open blocks until a reader opens the FIFO; closing it is the end of that input.
      let writer = open(path, O_WRONLY)
      _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
      close(writer)
      close(open(path, O_WRONLY))
    }
    return path
  }

  /// Ends each FIFO's second open: a reader that opens and closes at once, without waiting.
  private func releaseFIFOs() {
    for path in fifos { close(open(path, O_RDONLY | O_NONBLOCK)) }
    fifos = []
  }

  func testValidateReadsAFIFOInEveryFormat() throws {
    let plan = directory.appendingPathComponent("plan.yaml").path
    try Data("plan: Tiny\nactions:\n  play: {properties: {title: {type: string, required: true}}}\n".utf8)
      .write(to: URL(fileURLWithPath: plan))
    for format in ["text", "json", "junit", "html"] {
      let outcome = try BuiltProducts.run(["validate", "--plan", plan, "--format", format, try fifo(format)])
      XCTAssertEqual(outcome.status, 1, "\(format): one violation\n\(outcome.error)")
      XCTAssertFalse(outcome.error.contains("not a recording header"), "\(format): \(outcome.error)")
      XCTAssertTrue(outcome.output.contains("title"), "\(format): the missing property is named")
    }
    let text = try BuiltProducts.run(["validate", "--plan", plan, try fifo("text-again")])
    XCTAssertTrue(text.output.contains("3 records"), text.output)
  }

  func testDiffAndInferReadAFIFO() throws {
    let file = directory.appendingPathComponent("file.jsonl")
    try Data(Self.recording.utf8).write(to: file)
    let diff = try BuiltProducts.run(["diff", try fifo("base"), file.path])
    XCTAssertEqual(diff.status, 0, diff.error)
    let infer = try BuiltProducts.run(["plan", "infer", try fifo("infer")])
    XCTAssertEqual(infer.status, 0, infer.error)
    XCTAssertTrue(infer.output.contains("play"), infer.output)
  }
}
