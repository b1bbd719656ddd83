import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// Issue 31: one definition of a `seq` anomaly (``SequenceCheck``): the live timeline's count, the
/// query API's `seqAnomalies` (per segment), `listen`'s summary line and `validate`'s offline count
/// of the recording agree on the same streams.
final class SeqAnomalyCountTests: XCTestCase {
  /// One app repeats a seq, jumps far ahead (then goes on below the jump), and starts again at 1 in
  /// the same connection; another goes backwards. 3 anomalies (repeat, jump, backwards), 1 restart;
  /// a count per stream of every seq at or below the stream's highest would say 5.
  private static let streams: [(app: String, seqs: [Int])] = [
    ("A", [1, 2, 3, 2, 5_000_000, 4, 5, 1, 2]),
    ("B", [10, 20, 15]),
  ]

  func testTheSummaryLineTheQueryAPIAndValidateCountTheSameAnomalies() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("seq-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let notices = LockedArray<String>()
    let port = LockedArray<Int>()
    let stopRequested = LockedArray<Bool>()
    let runner = Task {
      try await ListenRunner.run(
        ListenOptions(port: 0, recordPath: file.path, headless: true), output: { _ in },
        notices: { notices.append($0) }, ready: { port.append($0) },
        stop: {
          while stopRequested.all.isEmpty { try? await Task.sleep(nanoseconds: 10_000_000) }
        })
    }
    XCTAssertTrue(eventually { !port.all.isEmpty })
    let listening = port.all[0]
    var clients: [RawClient] = []
    for stream in Self.streams {
      let client = try RawClient(port: listening)
      client.send(
        ([#"{"format":"tagscope-recording","version":1,"app":"\#(stream.app)","device":"sim"}"#]
          + stream.seqs.map { recordLine($0, "screen", "s\($0)") }).joined(separator: "\n") + "\n")
      clients.append(client)
    }
    let total = Self.streams.reduce(0) { $0 + $1.seqs.count }
    XCTAssertEqual(try Self.api(listening, "wait?count=\(total)&timeout=60").status, 200)
    let summary = try Self.api(listening, "summary").json
    XCTAssertEqual(summary["records"] as? Int, total)
    stopRequested.append(true)
    let statistics = try await runner.value

    var offline = 0
    let plan = try PlanLoader.load(yaml: "plan: P\nscreens:\n  s1: {}\n", file: "p.yaml")
    let report = try ValidateRunner.validate(plan: plan, recordings: [file.path])
    offline = report.sequence.anomalies
    XCTAssertEqual(offline, 3, "validate: repeat, jump, backwards (the restart apart)")
    XCTAssertEqual(report.sequence.jumped, 1)
    XCTAssertEqual(report.sequence.restarts, 1)
    XCTAssertEqual(summary["seqAnomalies"] as? Int, offline, "the query API")
    XCTAssertEqual(statistics.seqAnomalies, offline, "listen's statistics")
    XCTAssertTrue(
      notices.all.contains { $0.hasPrefix("stopped: ") && $0.contains(" · 3 records with seq out of order") },
      "\(notices.all)")
    // One problem line per anomaly or restart, worded as validate words it.
    let problems = notices.all.filter { $0.contains(": seq ") && $0.hasSuffix(": recorded") }
    XCTAssertEqual(problems.count, report.sequence.reported, "\(notices.all)")
  }

  /// The query API counts from the segment's start, as its other counts do; the live timeline
  /// (the debugger's header) counts the whole session, as `validate` does the whole file.
  func testTheQueryAPICountsPerSegmentAndTheTimelineAsValidateDoes() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    try listen.send([1, 2, 3, 2].map { recordLine($0, "screen", "s\($0)") })
    XCTAssertEqual(try listen.request("wait?count=4&timeout=60").status, 200)
    XCTAssertEqual(try listen.request("summary").json["seqAnomalies"] as? Int, 1)
    XCTAssertEqual(try listen.request("reset", method: "POST").status, 200)
    XCTAssertEqual(try listen.request("summary").json["seqAnomalies"] as? Int, 0, "a new segment")
    try listen.send([9_000_000, 4, 2, 5].map { recordLine($0, "screen", "s\($0)") })
    XCTAssertEqual(try listen.request("wait?count=4&timeout=60").status, 200)
    // The jump, then 2 repeated (below 4, the highest: the jump is not taken as it).
    XCTAssertEqual(try listen.request("summary").json["seqAnomalies"] as? Int, 2)
    XCTAssertEqual(listen.timeline.sequence.anomalies, 3)
    listen.session.flush()
    let offline = try RecordingScanner.scan(path: listen.recording.path) { _ in }
    XCTAssertEqual(offline.sequence, listen.timeline.sequence)
  }

  /// The server counts by itself, for any consumer: each native source's `seq` is checked in order
  /// across its connections (its second connection repeating a `seq` of its first counts, as it
  /// does in the recording), with the one definition the records' own check applies.
  func testTheServerCountsEachSourceAcrossItsConnectionsWithoutTheConsumer() async throws {
    let records = LockedArray<Record>()
    let disconnected = LockedArray<String>()
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(host: "127.0.0.1", port: 0)
    ) { event in
      switch event {
      case .records(let batch): for record in batch { records.append(record) }
      case .sourceDisconnected(let source): disconnected.append(source)
      default: break
      }
    }
    addTeardownBlock { try? await server.shutdown() }
    var sent = 0
    for (number, stream) in (Self.streams + Self.reconnection).enumerated() {
      let client = try RawClient(port: server.port)
      client.send(
        ([#"{"format":"tagscope-recording","version":1,"app":"\#(stream.app)","device":"sim"}"#]
          + stream.seqs.map { recordLine($0, "screen", "s\($0)") }).joined(separator: "\n") + "\n")
      sent += stream.seqs.count
      XCTAssertTrue(eventually { records.all.count == sent })
      client.disconnect()
      // The next connection of the same app is the same source, not `A@sim #2`.
      XCTAssertTrue(eventually { disconnected.all.count == number + 1 })
    }
    var offline = SequenceCheck()
    for record in records.all { _ = offline.check(seq: record.seq, source: record.source) }
    XCTAssertEqual(Set(records.all.compactMap(\.source)), ["A@sim", "B@sim"])
    XCTAssertEqual(offline.counts.anomalies, 4, "3, and the second connection's repeated 2")
    XCTAssertEqual(server.statistics.seqAnomalies, offline.counts.anomalies)
    XCTAssertEqual(
      server.statistics.summary.components(separatedBy: " · ").filter { $0.contains("seq") },
      ["4 records with seq out of order or jumping ahead"])
  }

  /// `listen` continuing a recording counts its `seq` anomalies as everything else does: its
  /// notice, the first session's stopped line and query API, and `validate` agree on the file.
  func testTheContinuationNoticeCountsAsTheStoppedLineAndValidate() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("seq-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let streams = Self.streams + Self.reconnection
    let first = try await runListen(recording: file, quiet: false) { port, notices in
      for (number, stream) in streams.enumerated() {
        let client = try RawClient(port: port)
        client.send(
          ([#"{"format":"tagscope-recording","version":1,"app":"\#(stream.app)","device":"sim"}"#]
            + stream.seqs.map { recordLine($0, "screen", "s\($0)") }).joined(separator: "\n") + "\n")
        client.disconnect()
        // Closed before the next connects: A's second connection is source A@sim again.
        XCTAssertTrue(
          eventually { notices.all.filter { $0.hasPrefix("source disconnected: ") }.count == number + 1 })
      }
      let total = streams.reduce(0) { $0 + $1.seqs.count }
      XCTAssertEqual(try Self.api(port, "wait?count=\(total)&timeout=60").status, 200)
      return try Self.api(port, "summary").json["seqAnomalies"] as? Int
    }
    let plan = try PlanLoader.load(yaml: "plan: P\nscreens:\n  s1: {}\n", file: "p.yaml")
    let report = try ValidateRunner.validate(plan: plan, recordings: [file.path])
    XCTAssertEqual(report.sequence.anomalies, 4, "validate")
    XCTAssertEqual(first.answer, report.sequence.anomalies, "the query API")
    XCTAssertEqual(first.statistics.seqAnomalies, report.sequence.anomalies, "the stopped line")
    XCTAssertEqual(try RecordedRuns.scan(path: file.path).sequence, report.sequence)
    let second = try await runListen(recording: file, quiet: false) { _, _ in () }
    XCTAssertTrue(
      second.notices.contains {
        $0.hasSuffix(
          ": 4 records whose seq repeats, goes backwards or jumps far ahead within its source "
            + "(kept; each run continues after its highest seq)")
      }, "\(second.notices)")
  }

  /// A second connection of app A after its first closed: its 2 repeats the first one's last.
  private static let reconnection: [(app: String, seqs: [Int])] = [("A", [2, 6])]

  func testAJumpIsCountedOnceAndDoesNotBecomeTheHighest() {
    var check = SequenceCheck()
    let seqs: [UInt64] = [1, 2, 1 << 40, 3, 4, 1 << 40, 3]
    let found = seqs.map { check.check(seq: $0, source: "a") }
    XCTAssertEqual(
      found,
      [nil, nil, .jumped(from: 2, to: 1 << 40), nil, nil, .jumped(from: 4, to: 1 << 40), .repeated(3)])
    XCTAssertEqual(check.counts.anomalies, 3)
    XCTAssertEqual(check.counts.jumped, 2)
    // Exactly at the limit is still taken as the highest.
    var edge = SequenceCheck()
    XCTAssertNil(edge.check(seq: 1, source: nil))
    XCTAssertNil(edge.check(seq: 1 + SequenceCheck.jumpLimit, source: nil))
    XCTAssertNil(edge.check(seq: 2 + SequenceCheck.jumpLimit, source: nil))
  }

  private static func api(_ port: Int, _ pathAndQuery: String, method: String = "GET") throws -> APIReply {
    let client = try RawClient(port: port)
    client.send(
      "\(method) /tagscope/v1/\(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + "Content-Length: 0\r\n\r\n")
    guard let (status, body) = client.readResponse() else { throw POSIXError(.ECONNRESET) }
    return APIReply(status: status, body: body)
  }
}
