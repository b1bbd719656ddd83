import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

/// Issue 48: `tagscope replay --scope NAME` opens the debugger on one UI test scope's records
/// only (the scope markers listen writes, which drop nothing), and an unknown name is an error
/// naming the recording's scopes. (That the debugger then lists that scope's records alone was
/// looked at in tmux: ``ScopeSplit``'s copy, which `validate --scope` reads too.)
final class ScopeReplayTests: XCTestCase {
  private var scratch: URL!

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "replay-scope-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: scratch)
  }

  private var binary: URL { packageRoot.appendingPathComponent(".build/debug/tagscope") }

  private func tagscope(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    return try runToEnd(process)
  }

  private func marker(_ name: String, _ event: ScopeMarker.Event) -> String {
    RecordLineEncoder.line(ScopeMarker(name: name, event: event).dropMarker)
  }

  /// A recording with a record outside any scope, then scopes `first` and `second`, two records each.
  private func recording() throws -> URL {
    let lines = [
      #"{"format":"tagscope-recording","version":1,"app":"Shop","device":"test","started":"2026-11-21T10:00:00.000Z"}"#,
      recordLine(1, "userAction", "outsideTap"),
      marker("first", .begin), recordLine(2, "userAction", "firstTap"),
      recordLine(3, "screen", "firstScreen"),
      marker("first", .end),
      marker("second", .begin), recordLine(4, "screen", "secondScreen"),
      recordLine(5, "userAction", "secondTap"),
      marker("second", .end),
    ]
    let url = scratch.appendingPathComponent("ui.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  func testAnUnknownScopeIsAnErrorNamingTheRecordingsScopes() throws {
    let file = try recording()
    let run = try tagscope(["replay", file.path, "--scope", "checkout"])
    XCTAssertEqual(run.status, 2, run.output)
    XCTAssertTrue(
      run.output.contains("no scope 'checkout' in \(file.path) (its scopes: first, second)"), run.output)

    let plain = scratch.appendingPathComponent("plain.jsonl")
    try
      (try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter {
        !$0.contains(#""scope""#)
      }
      .joined(separator: "\n") + "\n").write(to: plain, atomically: true, encoding: .utf8)
    let none = try tagscope(["replay", plain.path, "--scope", "first"])
    XCTAssertEqual(none.status, 2, none.output)
    XCTAssertTrue(none.output.contains("no scope 'first' in \(plain.path) (it has no scope)"), none.output)

    let stdin = try tagscope(["replay", "-", "--scope", "first"])
    XCTAssertEqual(stdin.status, 2, stdin.output)
    XCTAssertTrue(stdin.output.contains("--scope reads a recording file, not standard input"), stdin.output)
  }
}
