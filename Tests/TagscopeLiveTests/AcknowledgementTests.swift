import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// No record lost between app and `listen`: acknowledgements once records are written, the
/// RemoteSink's resend after a reconnect, and `listen` taking each (run, seq) once — within one
/// `listen`, and across a crash of `listen` and a restart on the same recording.
final class AcknowledgementTests: XCTestCase {
  private func start(_ store: any LiveStore, port: Int = 0, runs: [String: UInt64] = [:]) async throws -> (
    ListenServer, LiveSession
  ) {
    let session = LiveSession(store: store)
    var configuration = ListenConfiguration(port: port)
    configuration.recordedRuns = runs
    return (try await ListenServer.start(configuration: configuration, ingest: session), session)
  }

  func testRecordsInFlightWhenListenDiesAreResentAndRecordedOnceAfterARestartOnTheSameRecording()
    async throws
  {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let first = try GatedStore(url: url)
    let (serverA, sessionA) = try await start(first)
    let port = serverA.port
    let sink = RemoteSink(host: "127.0.0.1", port: UInt16(port), initialBackoff: 0.05, maximumBackoff: 0.2)
    for record in screenRecords(500) { sink.send(record) }
    XCTAssertTrue(sink.waitUntilAcknowledged(timeout: 60), "the first 500 are written and acknowledged")
    XCTAssertEqual(sink.unacknowledgedCount, 0)

    // The disk stalls: 300 more records reach listen, none is written, so none is acknowledged…
    first.setOpen(false)
    for record in screenRecords(300, first: 501) { sink.send(record) }
    sink.flush()
    XCTAssertTrue(eventually { serverA.statistics.accepted == 800 })
    XCTAssertFalse(sink.waitUntilAcknowledged(timeout: 0), "the stalled disk wrote none of them")
    XCTAssertEqual(sink.unacknowledgedCount, 300)
    // … and listen dies with them in memory (its connections first: a killed listen sends nothing).
    try await serverA.shutdown()
    first.crash()
    sessionA.close()
    first.close()
    XCTAssertEqual(try recordedRecords(url).count, 500)

    // listen starts again on the same recording and port; the sink reconnects and resends.
    let recorded = try RecordedRuns.scan(path: url.path)
    XCTAssertEqual(recorded.records, 500)
    XCTAssertEqual(Array(recorded.runs.values), [500])
    let (serverB, sessionB) = try await start(try Recorder(continuing: url), port: port, runs: recorded.runs)
    for record in screenRecords(200, first: 801) { sink.send(record) }
    XCTAssertTrue(sink.waitUntilAcknowledged(timeout: 60), "everything acknowledged by the second listen")
    sink.close()
    try await serverB.shutdown()
    sessionB.close()
    let records = try recordedRecords(url)
    XCTAssertEqual(records.map(\.seq), (1...1000).map(UInt64.init), "every record once, in order")
    XCTAssertEqual(Set(records.compactMap { $0.extra["run"] }).count, 1, "one run, kept on each record")
    XCTAssertEqual(sink.droppedCount, 0)
    XCTAssertEqual(sink.unconfirmedCount, 0)
    XCTAssertEqual(sink.connectionCount, 2)
  }

  func testAResentRecordAlreadyTakenIsAcknowledgedAndDropped() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url)
    let (server, session) = try await start(store)
    let header = RecordingHeader(app: "A", device: "d", extra: ["run": "run-1", "ack": true])
    func lines(_ seqs: ClosedRange<Int>) -> String {
      ([RecordLineEncoder.line(header)]
        + screenRecords(seqs.count, first: UInt64(seqs.lowerBound)).map(RecordLineEncoder.line))
        .joined(separator: "\n") + "\n"
    }
    let first = try RawClient(port: server.port)
    first.send(lines(1...10))
    XCTAssertTrue(first.acknowledgements(until: 10).contains(10))
    let second = try RawClient(port: server.port)
    second.send(lines(5...15))
    let acknowledged = second.acknowledgements(until: 15)
    XCTAssertEqual(acknowledged.first, 10, "a reconnecting run first learns what listen has")
    XCTAssertEqual(acknowledged.last, 15)
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), (1...15).map(UInt64.init))
    XCTAssertEqual(server.statistics.duplicates, 6)

    // Without a run nothing is deduplicated, and without "ack" nothing is sent back.
    let plainURL = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: plainURL) }
    let plainStore = try GatedStore(url: plainURL)
    let (plain, plainSession) = try await start(plainStore)
    let client = try RawClient(port: plain.port)
    client.send(
      ([RecordLineEncoder.line(RecordingHeader(app: "A"))] + screenRecords(3).map(RecordLineEncoder.line)
        + screenRecords(3).map(RecordLineEncoder.line)).joined(separator: "\n") + "\n")
    XCTAssertTrue(eventually { plain.statistics.accepted == 6 })
    plainSession.flush()
    // Everything listen sent on that connection, read until it closed it.
    try await plain.shutdown()
    XCTAssertEqual(client.readAll(), [], "no acknowledgement unless asked")
    plainSession.close()
    plainStore.close()
    XCTAssertEqual(try recordedRecords(plainURL).count, 6)
  }

  /// Issue 31: past a reconnecting client's resends, a `seq` at or below the stream's highest is
  /// recorded (not dropped as a resend), counted and reported; one far ahead is recorded and
  /// reported but does not become the highest, so the records after it are neither dropped nor
  /// acknowledged before they are written.
  func testOutOfOrderAndFarAheadSeqsAreRecordedCountedAndReported() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url)
    let (server, session) = try await start(store)
    let problems = LockedArray<String>()
    session.addObserver { update in
      for case .problem(_, let message) in update.events { problems.append(message) }
    }
    let header = RecordingHeader(app: "A", device: "d", extra: ["run": "run-9", "ack": true])
    let seqs: [UInt64] = [1, 2, 3, 2, 5_000_000, 4, 5]
    let records = seqs.map { screenRecords(1, first: $0)[0] }
    let client = try RawClient(port: server.port)
    client.send(
      ([RecordLineEncoder.line(header)] + records.map(RecordLineEncoder.line)).joined(separator: "\n") + "\n")
    let acknowledged = client.acknowledgements(until: 5)
    XCTAssertEqual(acknowledged.last, 5, "the jump is not acknowledged as the highest")
    XCTAssertTrue(eventually { problems.all.count == 2 }, "\(problems.all)")
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), seqs, "every record, in arrival order")
    XCTAssertEqual(server.statistics.duplicates, 0)
    var check = SequenceCheck()
    for seq in seqs { _ = check.check(seq: seq, source: "A@d") }
    XCTAssertEqual(check.counts.anomalies, 2, "counted where validate counts them, one per problem")
    XCTAssertEqual(
      problems.all,
      [
        "line 5: seq 2 repeats an earlier record's: recorded",
        "line 6: seq jumps from 3 to 5000000, more than 1048576 ahead (not taken as the highest): recorded",
      ])
  }

  /// Issue 31: a record far past the run's highest is never acknowledged, so the client resends it
  /// after a reconnect (here a kill of the connection, then of `listen`): each resend is a
  /// duplicate, and every record is in the recording exactly once.
  func testAFarAheadRecordResentAfterAReconnectOrARestartIsRecordedOnce() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url)
    let (server, session) = try await start(store)
    let header = RecordingHeader(app: "A", device: "d", extra: ["run": "run-j", "ack": true])
    func stream(_ seqs: [UInt64]) -> String {
      ([RecordLineEncoder.line(header)] + seqs.map { RecordLineEncoder.line(screenRecords(1, first: $0)[0]) })
        .joined(separator: "\n") + "\n"
    }
    let jump: UInt64 = 5_000_000
    let first = try RawClient(port: server.port)
    first.send(stream([1, 2, 3, jump, 4, 5]))
    XCTAssertEqual(first.acknowledgements(until: 5).last, 5, "the jump is not acknowledged")
    first.disconnect()
    // The client resends what no acknowledgement covered (the jump), in its order, then goes on.
    let second = try RawClient(port: server.port)
    second.send(stream([jump, 4, 5, 6, 7]))
    XCTAssertEqual(second.acknowledgements(until: 7).last, 7)
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), [1, 2, 3, jump, 4, 5, 6, 7])
    XCTAssertEqual(server.statistics.duplicates, 3, "the jump, 4 and 5 resent")

    // listen restarts on the same recording: the jump is still known, and resent once more.
    let recorded = try RecordedRuns.scan(path: url.path)
    XCTAssertEqual(recorded.runs, ["run-j": 7])
    XCTAssertEqual(recorded.jumps, ["run-j": [jump]])
    let session2 = LiveSession(store: try Recorder(continuing: url))
    var configuration = ListenConfiguration(port: 0)
    configuration.recordedRuns = recorded.runs
    configuration.recordedJumps = recorded.jumps
    let restarted = try await ListenServer.start(configuration: configuration, ingest: session2)
    let third = try RawClient(port: restarted.port)
    third.send(stream([jump, 8]))
    XCTAssertEqual(third.acknowledgements(until: 8).last, 8)
    try await restarted.shutdown()
    session2.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), [1, 2, 3, jump, 4, 5, 6, 7, 8], "every record once")
    XCTAssertEqual(restarted.statistics.duplicates, 1)
  }

  func testNoAcknowledgementOnceTheRecordingCannotBeWritten() async throws {
    let (server, session) = try await start(FailingStore())
    let client = try RawClient(port: server.port)
    let header = RecordingHeader(app: "A", extra: ["run": "run-2", "ack": true])
    client.send(
      ([RecordLineEncoder.line(header)] + screenRecords(5).map(RecordLineEncoder.line)).joined(
        separator: "\n")
        + "\n")
    XCTAssertTrue(eventually { server.statistics.accepted == 5 })
    session.flush()
    // Everything listen sent on that connection, read until it closed it.
    try await server.shutdown()
    XCTAssertEqual(client.acknowledgements(until: 5), [0], "only the greeting: nothing was written")
    session.close()
  }
}

/// A store whose disk is full.
private final class FailingStore: LiveStore, @unchecked Sendable {
  private let lock = NSLock()
  private var failure: SystemError?

  func receive(_ items: [SinkItem]) {
    lock.withLock { failure = SystemError("write", "full.jsonl", .noSpace) }
  }

  var lastWriteError: SystemError? { lock.withLock { failure } }

  func flush() {}

  func close() {}
}
