import Foundation
import XCTest

/// A command that fails at run time (a file it cannot use) says so in one line naming the file and
/// exits 2; usage errors (64, with the usage text) are for arguments that are wrong as written.
final class RuntimeErrorExitTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "runtime-exit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  private func assertRuntimeError(
    _ outcome: (status: Int32, output: String, error: String), naming path: String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(outcome.status, 2, outcome.error, file: file, line: line)
    XCTAssertFalse(outcome.error.contains("Usage:"), outcome.error, file: file, line: line)
    XCTAssertTrue(outcome.error.hasPrefix("tagscope: "), outcome.error, file: file, line: line)
    XCTAssertTrue(outcome.error.contains(path), outcome.error, file: file, line: line)
    XCTAssertEqual(outcome.error.split(separator: "\n").count, 1, outcome.error, file: file, line: line)
  }

  /// `listen --headless --record` on a newer tagscope's recording refuses to continue it.
  func testListenRefusingANewerRecordingExitsTwoWithoutUsage() throws {
    let path = directory.appendingPathComponent("v999.jsonl").path
    let header =
      #"{"format":"tagscope-recording","version":999,"app":"A","started":"2026-11-21T10:00:00.000Z"}"#
    try Data((header + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let outcome = try BuiltProducts.run(["listen", "--headless", "--quiet", "--port", "0", "--record", path])
    assertRuntimeError(outcome, naming: path)
    XCTAssertTrue(outcome.error.contains("newer"), outcome.error)
  }

  /// `demo --headless --record` into a folder that does not exist.
  func testDemoThatCannotWriteItsRecordingExitsTwoWithoutUsage() throws {
    let path = directory.appendingPathComponent("missing/out.jsonl").path
    let outcome = try BuiltProducts.run(["demo", "--headless", "--count", "1", "--record", path])
    assertRuntimeError(outcome, naming: path)
  }
}
