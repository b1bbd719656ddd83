import Foundation
import XCTest

/// A folder a command cannot make (`plan codegen -o`, `proxy ca --ca-dir`) is said in plain words
/// after the path the user gave, not as Foundation's `Error Domain=NSCocoaErrorDomain Code=516 …`.
final class CommandErrorWordsTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "error-words-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  func testAFolderThatCannotBeMadeIsSaidInWords() throws {
    let plan = directory.appendingPathComponent("plan.yaml").path
    try Data("plan: Tiny\nactions:\n  play: {}\n".utf8).write(to: URL(fileURLWithPath: plan))
    let file = directory.appendingPathComponent("a-file").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    for (arguments, expected) in [
      (
        ["plan", "codegen", plan, "-o", file],
        "tagscope: \(file): cannot make the folder (a file is there, not a folder)\n"
      ),
      (
        ["plan", "codegen", plan, "-o", file + "/sub"],
        "tagscope: \(file)/sub: cannot make the folder (a part of the path is a file, not a folder)\n"
      ),
      (
        ["proxy", "ca", "--ca-dir", file],
        "tagscope: \(file): cannot create the CA directory (a file is there, not a folder)\n"
      ),
    ] {
      let outcome = try BuiltProducts.run(arguments)
      XCTAssertEqual(outcome.status, 2, "\(arguments): \(outcome.error)")
      XCTAssertEqual(outcome.error, expected, "\(arguments)")
    }
  }

  /// A recording that cannot be opened is said after its path in plain words, not as the call
  /// (`…/x.jsonl: open failed: No such file or directory`), by demo as by listen.
  func testARecordingThatCannotBeOpenedIsSaidInWords() throws {
    let missing = directory.appendingPathComponent("no-folder/run.jsonl").path
    for arguments in [
      ["demo", "--headless", "--count", "1", "--record", missing],
      ["listen", "--headless", "--port", "0", "--record", missing],
    ] {
      let outcome = try BuiltProducts.run(arguments)
      XCTAssertEqual(outcome.status, 2, "\(arguments): \(outcome.error)")
      XCTAssertEqual(
        outcome.error, "tagscope: cannot write the recording \(missing): no such file or directory\n",
        "\(arguments)")
    }
  }
}
