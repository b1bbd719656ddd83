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

  /// Asserts a runtime refusal: exit 2, one line naming `path`, no usage text.
  private func assertRefusal(
    _ arguments: [String], naming path: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let outcome = try BuiltProducts.run(arguments)
    let command = arguments.prefix(2).joined(separator: " ")
    XCTAssertEqual(outcome.status, 2, "\(command): \(outcome.error)", file: file, line: line)
    XCTAssertFalse(outcome.error.contains("Usage:"), "\(command): \(outcome.error)", file: file, line: line)
    XCTAssertTrue(outcome.error.contains(path), "\(command): \(outcome.error)", file: file, line: line)
    XCTAssertEqual(
      outcome.error.split(separator: "\n").count, 1, "\(command): \(outcome.error)", file: file, line: line)
  }

  /// A plan, a recording, and a symbolic link, a FIFO and a folder beside them.
  private func fixtures() throws -> (
    plan: String, recording: String, link: String, fifo: String, folder: String
  ) {
    let plan = directory.appendingPathComponent("plan.yaml").path
    try Data("plan: Tiny\nactions:\n  play: {}\n".utf8).write(to: URL(fileURLWithPath: plan))
    let recording = directory.appendingPathComponent("run.jsonl").path
    let header =
      #"{"format":"tagscope-recording","version":1,"app":"A","started":"2026-11-21T10:00:00.000Z"}"#
    try Data((header + "\n").utf8).write(to: URL(fileURLWithPath: recording))
    let link = directory.appendingPathComponent("link.jsonl").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: directory.appendingPathComponent("target.jsonl").path)
    let fifo = directory.appendingPathComponent("fifo").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let folder = directory.appendingPathComponent("folder").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return (plan, recording, link, fifo, folder)
  }

  /// `listen`'s files (`--log` read, `--record`, `--junit`, `--json` written) that cannot be used
  /// are refused at run time, not as usage errors; nothing is written through a link.
  func testListenRefusesItsFilesAtRunTime() throws {
    let files = try fixtures()
    let missing = directory.appendingPathComponent("missing.log").path
    let listen = ["listen", "--headless", "--quiet", "--port", "0"]
    try assertRefusal(listen + ["--record", files.link], naming: files.link)
    try assertRefusal(listen + ["--record", files.fifo], naming: files.fifo)
    try assertRefusal(listen + ["--record", "/dev/null"], naming: "/dev/null")
    try assertRefusal(listen + ["--plan", files.plan, "--junit", files.folder], naming: files.folder)
    try assertRefusal(listen + ["--plan", files.plan, "--json", files.link], naming: files.link)
    try assertRefusal(listen + ["--log", "firebase", missing], naming: missing)
    try assertRefusal(listen + ["--log", "firebase", files.folder], naming: files.folder)
    try assertRefusal(
      ["proxy", "--headless", "--quiet", "--port", "0", "--proxy-port", "0", "--record", files.link],
      naming: files.link)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.appendingPathComponent("target.jsonl").path))
  }

  /// Every other command that reads or writes a file: a path it cannot use is exit 2 with one line.
  func testEveryCommandRefusesABadPathAtRunTime() throws {
    let files = try fixtures()
    let missing = directory.appendingPathComponent("missing.jsonl").path
    let missingPlan = directory.appendingPathComponent("missing.yaml").path
    try assertRefusal(["validate", "--plan", missingPlan, files.recording], naming: missingPlan)
    try assertRefusal(["validate", "--plan", files.plan, files.recording, missing], naming: missing)
    try assertRefusal(
      ["validate", "--plan", files.plan, files.folder, "--format", "junit"], naming: files.folder)
    try assertRefusal(["diff", missing, files.recording], naming: missing)
    try assertRefusal(["diff", files.recording, files.folder], naming: files.folder)
    try assertRefusal(["plan", "infer", files.recording, missing], naming: missing)
    try assertRefusal(["plan", "import", missing], naming: missing)
    try assertRefusal(["plan", "import", "-o", files.link, files.plan], naming: files.link)
    try assertRefusal(["plan", "import", "--force", "-o", files.fifo, files.plan], naming: files.fifo)
    try assertRefusal(["plan", "codegen", missingPlan, "-o", files.folder], naming: missingPlan)
    try assertRefusal(["plan", "codegen", files.plan, "-o", files.recording], naming: files.recording)
    try assertRefusal(["replay", missing], naming: missing)
    try assertRefusal(["demo", "--headless", "--count", "1", "--record", files.link], naming: files.link)
    try assertRefusal(["demo", "--count", "1", "--plan", missingPlan], naming: missingPlan)
    // A headless demo checks no plan: --plan there is refused as written, not ignored.
    let headlessPlan = try BuiltProducts.run(["demo", "--headless", "--count", "1", "--plan", files.plan])
    XCTAssertEqual(headlessPlan.status, 64, headlessPlan.error)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.appendingPathComponent("target.jsonl").path))
  }

  /// Standard input given twice is wrong as written (it can be read once): a usage error, the
  /// same for validate, diff and plan infer, before anything is read.
  func testStandardInputTwiceIsAUsageError() throws {
    let files = try fixtures()
    for arguments in [
      ["validate", "--plan", files.plan, "-", "-"], ["diff", "-", "-"],
      ["plan", "infer", "-", files.recording, "-"],
    ] {
      let outcome = try BuiltProducts.run(arguments)
      XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome.error)")
      XCTAssertTrue(outcome.error.contains("- (standard input) is given more than once"), outcome.error)
    }
  }
}
