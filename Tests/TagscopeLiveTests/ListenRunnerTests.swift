import Foundation
import TaggingPlan
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeLive
@testable import TagscopeServer

/// `tagscope listen --headless --record FILE`: every accepted record is in the recording when the
/// runner stops, and what it prints is sanitized.
final class ListenRunnerTests: XCTestCase {
  typealias Lines = LockedArray<String>

  func testAnExistingRecordingIsContinuedAndAnythingElseIsNotOverwritten() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "continue-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let options = ListenOptions(port: 0, headless: true)
    let notices = Lines()
    let notes = directory.appendingPathComponent("notes.txt")
    try Data("my notes\n".utf8).write(to: notes)
    XCTAssertThrowsError(try ListenRunner.openRecording(notes.path, options: options) { notices.append($0) })
    {
      XCTAssertTrue("\($0)".contains("not overwriting it"), "\($0)")
    }
    XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "my notes\n")

    let recording = directory.appendingPathComponent("listen.jsonl")
    var first = Record(seq: 5, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .screen, name: "a")
    first.extra["run"] = "run-1"
    var second = first
    second.seq = 7
    // The last line has no newline: listen was killed before it could end it.
    let text =
      [RecordingHeader(app: "tagscope listen")].map(RecordLineEncoder.line)
      + [first, second].map(RecordLineEncoder.line)
    try Data(text.joined(separator: "\n").utf8).write(to: recording)
    let (recorder, recorded) = try ListenRunner.openRecording(recording.path, options: options) {
      notices.append($0)
    }
    XCTAssertEqual(recorded.runs, ["run-1": 7])
    XCTAssertEqual(notices.all, ["continuing the recording \(recording.path): 2 records"])
    var third = second
    third.seq = 8
    try recorder.append(third)
    recorder.close()
    XCTAssertEqual(
      try recordedRecords(recording).map(\.seq), [5, 7, 8], "appended after the last line, ended first")
  }

  /// A recording whose last line was cut mid-write (kill -9): continuing it says which line was
  /// set aside, each run's mark comes from complete lines (and a repeated seq is counted, not a
  /// new mark), the next record starts a line of its own, and readers skip the torn line with its
  /// number.
  func testATornLastLineIsSetAsideAndTheNextRecordIsNotGluedToIt() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "torn-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recording = directory.appendingPathComponent("torn.jsonl")
    func record(_ seq: UInt64) -> Record {
      var record = Record(
        seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .screen, name: "s\(seq)")
      record.extra["run"] = "run-1"
      return record
    }
    let whole =
      [RecordingHeader(app: "tagscope listen")].map(RecordLineEncoder.line)
      + [record(5), record(7), record(6)].map(RecordLineEncoder.line)
    let torn = String(RecordLineEncoder.line(record(9)).prefix(30))
    try Data((whole.joined(separator: "\n") + "\n" + torn).utf8).write(to: recording)
    let notices = Lines()
    let (recorder, recorded) = try ListenRunner.openRecording(
      recording.path, options: ListenOptions(port: 0, headless: true)
    ) { notices.append($0) }
    XCTAssertEqual(recorded.runs, ["run-1": 7], "the torn seq 9 is no mark, nor the late 6")
    XCTAssertEqual(
      notices.all,
      [
        "continuing the recording \(recording.path): 3 records",
        "\(recording.path):5: the last line was cut mid-write (no newline at its end): ended and set aside, "
          + "readers skip it; each run's mark is from complete lines",
        "\(recording.path): 1 record whose seq repeats, goes backwards or jumps far ahead within its source "
          + "(kept; each run continues after its highest seq)",
      ])
    try recorder.append(record(8))
    recorder.close()
    let reader = try RecordingReader(path: recording.path)
    var seqs: [UInt64] = []
    var problems: [String] = []
    while let entry = try reader.next() {
      switch entry {
      case .record(let record, _): seqs.append(record.seq)
      case .problem(let problem): problems.append("\(problem.line)")
      case .dropped: break
      }
    }
    XCTAssertEqual(seqs, [5, 7, 6, 8])
    XCTAssertEqual(problems, ["5"])
  }

  /// A recording a newer tagscope wrote is not continued (nor overwritten): the error names the
  /// file and both versions.
  func testARecordingOfANewerVersionIsNotContinued() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "newer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recording = directory.appendingPathComponent("newer.jsonl")
    let record = Record(seq: 1, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .screen, name: "a")
    let text =
      RecordLineEncoder.line(RecordingHeader(app: "future", version: 999)) + "\n"
      + RecordLineEncoder.line(record) + "\n"
    try Data(text.utf8).write(to: recording)
    let notices = Lines()
    XCTAssertThrowsError(
      try ListenRunner.openRecording(recording.path, options: ListenOptions(port: 0, headless: true)) {
        notices.append($0)
      }
    ) {
      XCTAssertEqual(
        "\($0)",
        "\(recording.path): format version 999 is newer than this tagscope writes (1): not continuing it "
          + "(give another --record path, or update tagscope)")
    }
    XCTAssertEqual(notices.all, [])
    XCTAssertEqual(try String(contentsOf: recording, encoding: .utf8), text)
  }

  func testHeadlessRunWritesTheRecordingAndPrintsSanitizedLines() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "listen-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let output = Lines()
    let notices = Lines()
    let boundPort = Lines()
    let stopped = expectation(description: "stopped")
    let options = ListenOptions(port: 0, recordPath: file.path, headless: true)
    let runner = Task {
      let statistics = try await ListenRunner.run(
        options, output: { output.append($0) }, notices: { notices.append($0) },
        ready: { boundPort.append(String($0)) },
        stop: {
          while output.all.joined(separator: "\n").components(separatedBy: "\n").count < 3 {
            try? await Task.sleep(nanoseconds: 10_000_000)
          }
        })
      stopped.fulfill()
      return statistics
    }
    while boundPort.all.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
    let listeningPort = Int(boundPort.all[0]) ?? 0
    let evil = #"{"type":"track","userId":"u","event":"evil\u001b[2J\u202escreen"}"#
    XCTAssertEqual(try httpRequest(port: listeningPort, path: "/v1/track", body: evil)?.status, 200)
    let native = try RawClient(port: listeningPort)
    native.send(#"{"format":"tagscope-recording","version":1,"app":"Podcasts","device":"sim"}"# + "\n")
    native.send(#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"podcasts"}"# + "\n")
    native.send(
      #"{"seq":2,"time":"2026-11-21T10:00:01.000Z","kind":"userAction","name":"playPodcast"}"# + "\n")
    await fulfillment(of: [stopped], timeout: 60)
    let statistics = try await runner.value
    XCTAssertEqual(statistics.accepted, 3)

    let lines = output.all.joined(separator: "\n").components(separatedBy: "\n")
    XCTAssertEqual(lines.count, 3)
    XCTAssertTrue(lines[0].contains(#""evil\e[2J<U+202E>screen""#), lines[0])
    XCTAssertFalse(lines.joined().unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    XCTAssertTrue(notices.all.contains("source connected: Podcasts@sim"), "\(notices.all)")
    XCTAssertTrue(notices.all.contains { $0.hasPrefix("stopped: accepted 3") }, "\(notices.all)")

    let recorded = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    XCTAssertEqual(recorded.count, 4)
    guard case .header(let header) = try RecordLineDecoder.decode(recorded[0]) else {
      return XCTFail("no header: \(recorded[0])")
    }
    XCTAssertEqual(header.app, "tagscope listen")
    let records = try recorded.dropFirst().map { try RecordLineDecoder.decodeRecord($0) }
    XCTAssertEqual(records.map(\.source), ["segment@127.0.0.1", "Podcasts@sim", "Podcasts@sim"])
    XCTAssertEqual(records[0].name, "evil\u{1b}[2J\u{202e}screen")
    XCTAssertEqual(records.map(\.name).suffix(2), ["podcasts", "playPodcast"])
  }

  func testSanitizeEscapesControlBidiAndZeroWidth() {
    XCTAssertEqual(
      TerminalText.sanitize("a\u{1b}[31mb\nc\u{200b}d\u{2066}e"), "a\\e[31mb\\nc<U+200B>d<U+2066>e")
    XCTAssertEqual(TerminalText.sanitize("Écoute 🎧 日本"), "Écoute 🎧 日本")
  }

  func testQuietKeepsStandardErrorToTheStartAndTheSummary() async throws {
    let notices = Lines()
    let boundPort = Lines()
    let finished = Lines()
    let options = ListenOptions(port: 0, headless: true, quiet: true)
    let runner = Task {
      try await ListenRunner.run(
        options, output: { _ in }, notices: { notices.append($0) }, ready: { boundPort.append(String($0)) },
        stop: {
          while finished.all.isEmpty { try? await Task.sleep(nanoseconds: 10_000_000) }
        })
    }
    while boundPort.all.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
    let port = Int(boundPort.all[0]) ?? 0
    do {
      let native = try RawClient(port: port)
      native.send(
        #"{"format":"tagscope-recording","version":1,"app":"A"}"# + "\n" + "{bad\n{bad\n"
          + recordLine(1, "screen", "home") + "\n")
      for _ in 0..<3 {
        XCTAssertEqual(try httpRequest(port: port, path: "/nowhere", body: "{}")?.status, 404)
      }
      // The stream's lines are read in order: once its record is in, so are its two bad lines.
      let wait = try httpRequest(
        port: port, method: "GET", path: "/tagscope/v1/wait?count=1&timeout=60", contentType: nil, body: "")
      XCTAssertEqual(wait?.status, 200)
    }
    finished.append("sent")
    let statistics = try await runner.value
    XCTAssertEqual(statistics.rejected[.badLine], 2)
    XCTAssertEqual(notices.all.count, 2, "\(notices.all)")
    XCTAssertTrue(notices.all.first?.hasPrefix("listening on") ?? false)
    XCTAssertTrue(notices.all.last?.hasPrefix("stopped:") ?? false)
  }

  func testSIGTERMStopsTheRunnerWithEveryAcceptedRecordInTheRecording() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "listen-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let boundPort = Lines()
    let options = ListenOptions(port: 0, recordPath: file.path, headless: true, quiet: true)
    let output = Lines()
    let runner = Task {
      try await ListenRunner.run(
        options, output: { output.append($0) }, notices: { _ in }, ready: { boundPort.append(String($0)) })
    }
    while boundPort.all.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
    let port = Int(boundPort.all[0]) ?? 0
    var batch: [String] = []
    for index in 0..<50 { batch.append(#"{"type":"track","userId":"u","event":"E\#(index)"}"#) }
    let reply = try httpRequest(
      port: port, path: "/v1/batch", body: #"{"batch":[\#(batch.joined(separator: ","))]}"#)
    XCTAssertEqual(reply?.status, 200)
    kill(getpid(), SIGTERM)
    let statistics = try await runner.value
    XCTAssertEqual(statistics.accepted, 50)
    XCTAssertTrue(output.all.isEmpty, "--quiet printed \(output.all)")
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 51)
    XCTAssertEqual(try RecordLineDecoder.decodeRecord(String(lines[50])).name, "E49")
  }

  func testPlanViolationsPrintUnderTheirRecordAndTheSummaryAtTheEnd() async throws {
    let output = Lines()
    let notices = Lines()
    let boundPort = Lines()
    let options = ListenOptions(port: 0, headless: true)
    let plan = try PlanLoader.load(yaml: "plan: \"P\\e]0;owned\\a\"\nevents:\n  Listen: {}\n", file: "p.yaml")
    let runner = Task {
      try await ListenRunner.run(
        options, output: { output.append($0) }, notices: { notices.append($0) },
        ready: { boundPort.append(String($0)) },
        stop: {
          while output.all.joined(separator: "\n").components(separatedBy: "\n").count < 2 {
            try? await Task.sleep(nanoseconds: 10_000_000)
          }
        },
        plan: plan)
    }
    while boundPort.all.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
    let body = #"{"type":"track","userId":"user-1","event":"Play\u001b[31m"}"#
    XCTAssertEqual(
      try httpRequest(port: Int(boundPort.all[0]) ?? 0, path: "/v1/track", body: body)?.status, 200)
    _ = try await runner.value
    let lines = output.all.joined(separator: "\n").components(separatedBy: "\n")
    XCTAssertEqual(lines.count, 2, "\(lines)")
    XCTAssertTrue(lines[0].contains(#""Play\e[31m""#), lines[0])
    XCTAssertTrue(lines[1].hasPrefix("  ✗ error unplanned-tag: "), lines[1])
    XCTAssertFalse(lines[1].unicodeScalars.contains { $0.value == 0x1B }, lines[1])
    // The plan's name (with a terminal title sequence) is printed as visible escapes.
    XCTAssertTrue(notices.all.last?.hasPrefix(#"plan: plan P\e]0;owned\x07"#) == true, "\(notices.all)")
  }
}
