import Foundation
import XCTest

/// Every command that takes a recording reads it through the one `RecordingReader`, from a
/// regular file, standard input (`-`) or a FIFO alike (`ReadOnceInputTests` has the FIFO in first
/// place): here each command reads standard input, and FIFOs where a command takes a second
/// recording, with the same result as the file.
final class RecordingInputTests: XCTestCase {
  private var directory: URL!
  private var fifos: [String] = []

  override func setUpWithError() throws {
    // A command that refuses its arguments closes its standard input unread: the writer then gets
    // EPIPE, not a signal that ends the test process.
    signal(SIGPIPE, SIG_IGN)
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "recording-input-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    // A FIFO a failing command never opened: its writer waits; one open without waiting ends it.
    for path in fifos { close(open(path, O_RDONLY | O_NONBLOCK)) }
    try? FileManager.default.removeItem(at: directory)
  }

  /// Three `play` actions, the second without its required `title`, and one integer past 2^64.
  static let recording =
    #"{"format":"tagscope-recording","version":1,"app":"A","started":"2026-11-21T10:00:00.000Z"}"# + "\n"
    + (1...3).map { seq in
      let properties = seq == 2 ? #"{"n":18446744073709551616}"# : #"{"title":"t","n":1}"#
      return #"{"seq":\#(seq),"time":"2026-11-21T10:00:0\#(seq).000Z","kind":"userAction","name":"play","#
        + #""properties":\#(properties),"context":{"history":[]},"outputs":[]}"#
    }.joined(separator: "\n") + "\n"

  private var planPath: String {
    get throws {
      let path = directory.appendingPathComponent("plan.yaml").path
      try Data(
        "plan: Tiny\nactions:\n  play: {properties: {title: {type: string, required: true}, n: {}}}\n".utf8
      )
      .write(to: URL(fileURLWithPath: path))
      return path
    }
  }

  private func file() throws -> String {
    let url = directory.appendingPathComponent("file-\(UUID().uuidString).jsonl")
    try Data(Self.recording.utf8).write(to: url)
    return url.path
  }

  /// A FIFO its writer thread fills with the recording once, then closes.
  private func fifo() throws -> String {
    let path = directory.appendingPathComponent("fifo-\(UUID().uuidString)").path
    XCTAssertEqual(mkfifo(path, 0o600), 0)
    fifos.append(path)
    let bytes = Array(Self.recording.utf8)
    Thread.detachNewThread {
      let writer = open(path, O_WRONLY)
      guard writer >= 0 else { return }
      _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
      close(writer)
    }
    return path
  }

  /// Runs `tagscope ARGUMENTS…` with `input` on its standard input (written by another thread,
  /// then closed): its exit status, standard output and standard error.
  private func run(_ arguments: [String], input: String) throws -> (
    status: Int32, output: String, error: String
  ) {
    let process = Process()
    process.executableURL = try BuiltProducts.tagscope()
    process.arguments = arguments
    let stdin = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = stdin
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let writer = stdin.fileHandleForWriting
    let bytes = Data(input.utf8)
    Thread.detachNewThread {
      try? writer.write(contentsOf: bytes)
      try? writer.close()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }

  /// What a command prints, `path` named `-` as standard input is (the HTML report breaks a path
  /// after each `/`), times masked.
  private func masked(_ text: String, _ path: String) -> String {
    text.replacingOccurrences(of: "<wbr>", with: "").replacingOccurrences(of: path, with: "-")
      .replacingOccurrences(of: directory.path + "/<span", with: "<span")
      .replacingOccurrences(of: URL(fileURLWithPath: path).lastPathComponent, with: "-")
      .replacingOccurrences(
        of: #"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?"#, with: "TIME", options: .regularExpression)
  }

  func testValidateReadsStandardInputAsAFileInEveryFormat() throws {
    let plan = try planPath
    for format in ["text", "json", "junit", "html"] {
      let path = try file()
      let fromFile = try BuiltProducts.run(["validate", "--plan", plan, "--format", format, path])
      let fromInput = try run(["validate", "--plan", plan, "--format", format, "-"], input: Self.recording)
      XCTAssertEqual(fromInput.status, 1, "\(format): one violation\n\(fromInput.error)")
      XCTAssertEqual(fromInput.status, fromFile.status, format)
      XCTAssertEqual(
        masked(fromInput.output, path), masked(fromFile.output, path), format)
    }
  }

  func testValidateReadsAFIFOAfterAFileAndStandardInput() throws {
    let outcome = try run(
      ["validate", "--plan", try planPath, "--format", "json", try file(), "-", try fifo()],
      input: Self.recording)
    XCTAssertEqual(outcome.status, 1, outcome.error)
    XCTAssertTrue(
      outcome.output.contains(#""records":9"#) || outcome.output.contains("9 records"), outcome.output)
    XCTAssertFalse(outcome.error.contains("not a recording"), outcome.error)
  }

  func testDiffReadsStandardInputAndAFIFOOnEitherSide() throws {
    let base = try run(["diff", "-", try file()], input: Self.recording)
    XCTAssertEqual(base.status, 0, base.error)
    XCTAssertTrue(base.output.contains("no change"), base.output)
    let new = try run(["diff", try file(), "-"], input: Self.recording)
    XCTAssertEqual(new.status, 0, new.error)
    XCTAssertTrue(new.output.contains("no change"), new.output)
    let fifos = try BuiltProducts.run(["diff", try fifo(), try fifo()])
    XCTAssertEqual(fifos.status, 0, fifos.error)
    XCTAssertTrue(fifos.output.contains("3 records"), fifos.output)
  }

  func testPlanInferReadsStandardInputAndFIFOs() throws {
    let fromFile = try BuiltProducts.run(["plan", "infer", try file()])
    let fromInput = try run(["plan", "infer", "-"], input: Self.recording)
    XCTAssertEqual(fromInput.status, 0, fromInput.error)
    XCTAssertTrue(fromInput.output.contains("play"), fromInput.output)
    XCTAssertEqual(
      fromInput.output.split(separator: "\n").dropFirst(), fromFile.output.split(separator: "\n").dropFirst())
    let two = try run(["plan", "infer", try fifo(), "-"], input: Self.recording)
    XCTAssertEqual(two.status, 0, two.error)
    XCTAssertTrue(two.output.contains("6 records"), two.output)
  }

  /// A FIFO (or standard input under another name) given twice is refused as written: before, the
  /// second opening of the FIFO waited for a writer that was gone, and the command never ended.
  func testAReadOnceInputGivenTwiceIsRefused() throws {
    let plan = try planPath
    let path = try fifo()
    let outcomes = [
      try BuiltProducts.run(["validate", "--plan", plan, path, path]),
      try BuiltProducts.run(["diff", path, path]),
      try BuiltProducts.run(["plan", "infer", path, try file(), path]),
    ]
    for outcome in outcomes {
      XCTAssertEqual(outcome.status, 64, outcome.error)
      XCTAssertTrue(
        outcome.error.contains("\(path) is given more than once: a pipe or FIFO can be read only once"),
        outcome.error)
    }
    let stdin = try run(["validate", "--plan", plan, "-", "/dev/stdin"], input: Self.recording)
    XCTAssertEqual(stdin.status, 64, stdin.error)
    XCTAssertTrue(stdin.error.contains("- (standard input) is given more than once"), stdin.error)
    // A regular file may be given twice: it is read twice.
    let twice = try file()
    let outcome = try BuiltProducts.run(["validate", "--plan", plan, twice, twice])
    XCTAssertEqual(outcome.status, 1, outcome.error)
    XCTAssertTrue(outcome.output.contains("6 records"), outcome.output)
  }
}
