import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeInspector

final class RemoteSinkTests: XCTestCase {
  func record(_ seq: Int) -> Record {
    Record(seq: UInt64(seq), time: Date(), kind: .userAction, name: "tap\(seq)", properties: ["n": .int(seq)])
  }

  func testStreamsTheHeaderThenEachRecordAsItComes() throws {
    let server = try LineServer()
    defer { server.stop() }
    let header = RecordingHeader(app: "Podcasts", device: "sim")
    let sink = RemoteSink(host: "127.0.0.1", port: server.port, header: header)
    defer { sink.close() }
    for seq in 1...20 {
      sink.send(record(seq))
      XCTAssertTrue(server.wait { $0.count == seq + 1 }, "record \(seq) arrives")
    }
    let lines = server.lines.map(\.line)
    guard case .header(var sent) = try RecordLineDecoder.decode(lines[0]) else { return XCTFail(lines[0]) }
    XCTAssertEqual(sent.extra["ack"], true, "the sink asks for acknowledgements")
    guard case .string(let run)? = sent.extra["run"] else { return XCTFail("no run id: \(lines[0])") }
    XCTAssertEqual(run.count, 36)
    sent.extra = [:]
    XCTAssertEqual(sent, header)
    XCTAssertEqual(try lines.dropFirst().map { try RecordLineDecoder.decodeRecord($0).seq }, Array(1...20))
    XCTAssertEqual(sink.droppedCount, 0)
  }

  func testARecordSentWhileTheSinksThreadSleepsIdleWakesIt() throws {
    let server = try LineServer()
    defer { server.stop() }
    // An hour's heartbeat: once idle, the sink's thread sleeps half an hour unless a record wakes it.
    let sink = RemoteSink(host: "127.0.0.1", port: server.port, heartbeat: 3_600)
    defer { sink.close() }
    sink.send(record(1))
    XCTAssertTrue(server.wait { $0.count == 2 })
    XCTAssertTrue(eventually { sink.isIdle }, "the sink's thread goes to its idle sleep")
    sink.send(record(2))
    XCTAssertTrue(server.wait { $0.count == 3 }, "the record woke the thread")
  }

  func testAWaitingSinkRetriesAtItsBackoffEvenAfterItsThreadWentToSleep() throws {
    let port = try LineServer.freePort()
    let sink = RemoteSink(
      host: "127.0.0.1", port: port, initialBackoff: 0.05, maximumBackoff: 0.2, heartbeat: 3_600)
    defer { sink.close() }
    for seq in 1...5 { sink.send(record(seq)) }
    // Once idle, the thread sleeps half the heartbeat (half an hour) unless a retry is due sooner.
    XCTAssertTrue(eventually { sink.connectionAttempts > 0 && sink.isIdle }, "the thread sleeps")
    let server = try LineServer(port: port)
    defer { server.stop() }
    XCTAssertTrue(server.wait { $0.count == 6 }, "the waiting records arrive at the next retry")
  }

  func testAnOutageIsLoggedOnceAndTheStateSaysSince() throws {
    let port = try LineServer.freePort()
    let logged = LockedLines()
    let before = Date()
    let sink = RemoteSink(
      host: "127.0.0.1", port: port, initialBackoff: 0.02, maximumBackoff: 0.05, log: { logged.append($0) })
    defer { sink.close() }
    let initial = sink.connectionState
    XCTAssertTrue(initial == .connecting || sink.connectionAttempts > 0, "connecting until an attempt fails")
    for seq in 1...5 { sink.send(record(seq)) }
    XCTAssertTrue(eventually { logged.count == 1 })
    guard case .waiting(let since, let reason) = sink.connectionState else {
      return XCTFail("\(sink.connectionState)")
    }
    XCTAssertTrue((before...Date()).contains(since), "since the first attempt failed")
    // In plain words after the address the line names, not `127.0.0.1:PORT: connect failed: …`.
    XCTAssertEqual(reason, "connection refused")
    let attempts = sink.connectionAttempts
    XCTAssertTrue(eventually { sink.connectionAttempts >= attempts + 5 }, "several more attempts fail")
    XCTAssertEqual(logged.all.count, 1, "once per outage, not per attempt: \(logged.all)")
    XCTAssertEqual(
      logged.all[0],
      "cannot reach tagscope listen at 127.0.0.1:\(port) (connection refused); keeping records and retrying")
    guard case .waiting(let stillSince, _) = sink.connectionState else {
      return XCTFail("\(sink.connectionState)")
    }
    XCTAssertEqual(stillSince, since, "the outage keeps the time it started")
    let server = try LineServer(port: port)
    XCTAssertTrue(server.wait { $0.count == 6 })
    XCTAssertTrue(eventually { logged.count == 2 })
    XCTAssertTrue(logged.all[1].contains("connected to tagscope listen"), logged.all[1])
    XCTAssertEqual(sink.connectionState, .connected)
    server.stop()
    sink.send(record(6))
    XCTAssertTrue(eventually { logged.count == 3 })
    XCTAssertTrue(logged.all[2].hasPrefix("lost tagscope listen"), logged.all[2])
  }

  func testNothingIsKeptForResendingWhenTheServerNeverAcknowledges() throws {
    let server = try LineServer()
    defer { server.stop() }
    let clock = ManualClock(start: Date())
    let sink = RemoteSink(host: "127.0.0.1", port: server.port, now: { clock.now })
    defer { sink.close() }
    for seq in 1...10 { sink.send(record(seq)) }
    XCTAssertTrue(server.wait { $0.count == 11 })
    sink.flush()
    XCTAssertEqual(sink.unacknowledgedCount, 10, "kept while the server may still answer the header")
    clock.advance(by: 1.2)  // past the grace a server has to answer the header
    sink.send(record(11))
    XCTAssertTrue(server.wait { $0.count == 12 })
    sink.flush()
    XCTAssertEqual(sink.unacknowledgedCount, 0, "a plain socket gets the old behaviour")
    XCTAssertTrue(sink.waitUntilAcknowledged(timeout: 0), "nothing waits for it either")
  }

  func testKeepsLinesUntilTheServerIsThereAndReconnectsAfterItGoesAway() throws {
    let port = try LineServer.freePort()
    let sink = RemoteSink(host: "127.0.0.1", port: port, initialBackoff: 0.05, maximumBackoff: 0.2)
    defer { sink.close() }
    // Nobody listens yet: send never blocks (it only queues), and the sink waits for a server.
    for seq in 1...50 { sink.send(record(seq)) }
    XCTAssertTrue(
      eventually {
        if case .waiting = sink.connectionState { true } else { false }
      })
    XCTAssertFalse(sink.isConnected)

    let server = try LineServer(port: port)
    defer { server.stop() }
    XCTAssertTrue(server.wait { $0.count == 51 }, "the 50 waiting records arrive after the header")
    XCTAssertEqual(sink.connectionCount, 1)

    server.dropConnection()
    XCTAssertTrue(eventually { !sink.isConnected || sink.connectionCount == 2 })
    var seq = 51
    // Keep sending, one record a batch (flush waits until the sink's thread took it), until the sink
    // has reconnected and a record reaches the second connection.
    let reconnected = server.wait { lines in
      if seq < 5000 {
        seq += 1
        sink.send(self.record(seq))
        sink.flush()
      }
      return lines.contains { $0.connection == 2 && $0.line.contains("\"seq\"") }
    }
    XCTAssertTrue(reconnected)
    sink.flush()
    XCTAssertTrue(server.wait { $0.contains { $0.line.contains("\"seq\":\(seq),") } })
    let second = server.lines.filter { $0.connection == 2 }
    let firstOfSecond = try XCTUnwrap(second.first, "the second connection received lines")
    XCTAssertEqual(
      try RecordLineDecoder.decode(firstOfSecond.line),
      .header(RecordingHeader(started: nil)).withStarted(firstOfSecond.line))
    // Every record sent is received or counted as dropped (and the count reached the server), except
    // a batch handed to the kernel just before the server cut the connection: TCP gives no receipt
    // for it (at most one record: each batch held one).
    let receivedSeqs = Set(server.lines.compactMap { try? RecordLineDecoder.decodeRecord($0.line).seq })
    let markers = server.lines.compactMap { line -> DropMarker? in
      guard case .dropped(let marker)? = try? RecordLineDecoder.decode(line.line) else { return nil }
      return marker
    }
    XCTAssertGreaterThanOrEqual(
      receivedSeqs.count + sink.droppedCount, seq - 1,
      "received \(receivedSeqs.count), dropped \(sink.droppedCount)")
    XCTAssertLessThanOrEqual(receivedSeqs.count + sink.droppedCount, seq)
    XCTAssertEqual(
      receivedSeqs.filter { $0 <= 50 }.count, 50, "nothing sent before the server existed was lost")
    XCTAssertEqual(markers.map(\.count).reduce(0, +), sink.droppedCount)
  }

  func testNeverBlocksAndCountsDropsWhenTheQueueIsFull() throws {
    let port = try LineServer.freePort()
    let sink = RemoteSink(host: "127.0.0.1", port: port, capacity: 100, initialBackoff: 10)
    // Nobody listens and the next attempt is 10 s away: sending only queues, or drops and counts.
    for seq in 1...10_000 { sink.send(record(seq)) }
    sink.close()
    XCTAssertEqual(sink.droppedCount, 10_000, "nothing could be sent; everything is counted")
  }
}

extension RecordingLine {
  /// The header with the `started` of the header written in `line` (the sink's start time).
  fileprivate func withStarted(_ line: String) -> RecordingLine {
    guard case .header(var header) = self, case .header(let actual)? = try? RecordLineDecoder.decode(line)
    else {
      return self
    }
    header.started = actual.started
    header.extra = actual.extra
    return .header(header)
  }
}

/// Lines logged from the sink's thread.
private final class LockedLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
  var count: Int { lock.withLock { lines.count } }
}
