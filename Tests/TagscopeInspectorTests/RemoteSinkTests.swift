import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

final class RemoteSinkTests: XCTestCase {
  func record(_ seq: Int) -> Record {
    Record(seq: UInt64(seq), time: Date(), kind: .userAction, name: "tap\(seq)", properties: ["n": .int(seq)])
  }

  func testStreamsTheHeaderThenRecordsWithinAHundredMilliseconds() throws {
    let server = try LineServer()
    defer { server.stop() }
    let header = RecordingHeader(app: "Podcasts", device: "sim")
    let sink = RemoteSink(host: "127.0.0.1", port: server.port, header: header)
    defer { sink.close() }
    var latencies: [Double] = []
    for seq in 1...20 {
      let start = DispatchTime.now().uptimeNanoseconds
      sink.send(record(seq))
      XCTAssertTrue(server.wait { $0.count == seq + 1 }, "record \(seq) arrives")
      guard let arrival = server.lines.last?.time else { continue }
      latencies.append(Double(arrival - start) / 1e6)
    }
    let lines = server.lines.map(\.line)
    guard case .header(var sent) = try RecordLineDecoder.decode(lines[0]) else { return XCTFail(lines[0]) }
    XCTAssertEqual(sent.extra["ack"], true, "the sink asks for acknowledgements")
    guard case .string(let run)? = sent.extra["run"] else { return XCTFail("no run id: \(lines[0])") }
    XCTAssertEqual(run.count, 36)
    sent.extra = [:]
    XCTAssertEqual(sent, header)
    XCTAssertEqual(try lines.dropFirst().map { try RecordLineDecoder.decodeRecord($0).seq }, Array(1...20))
    XCTAssertLessThanOrEqual(latencies.max() ?? .infinity, 100 * timingSlack, "latencies \(latencies) ms")
    XCTAssertEqual(sink.droppedCount, 0)
  }

  func testARecordAfterAnIdleSpellStillArrivesWithinAHundredMilliseconds() throws {
    let server = try LineServer()
    defer { server.stop() }
    let sink = RemoteSink(host: "127.0.0.1", port: server.port)
    defer { sink.close() }
    sink.send(record(1))
    XCTAssertTrue(server.wait { $0.count == 2 })
    usleep(700_000)  // the sink's thread goes to its idle sleep
    let start = DispatchTime.now().uptimeNanoseconds
    sink.send(record(2))
    XCTAssertTrue(server.wait { $0.count == 3 })
    let arrival = server.lines.last?.time ?? .max
    XCTAssertLessThan(Double(arrival &- start) / 1e6, 100 * timingSlack)
  }

  func testAWaitingSinkRetriesAtItsBackoffEvenAfterItsThreadWentToSleep() throws {
    let port = try LineServer.freePort()
    let sink = RemoteSink(host: "127.0.0.1", port: port, initialBackoff: 0.05, maximumBackoff: 0.2)
    defer { sink.close() }
    for seq in 1...5 { sink.send(record(seq)) }
    usleep(1_000_000)  // well past the 20 empty polls after which the thread sleeps long
    let server = try LineServer(port: port)
    defer { server.stop() }
    let start = Date()
    XCTAssertTrue(server.wait(timeout: 3 * timingSlack) { $0.count == 6 }, "the waiting records arrive")
    XCTAssertLessThan(
      Date().timeIntervalSince(start), 0.2 + 0.5 * timingSlack,
      "within the maximum backoff, not the heartbeat")
  }

  func testAnOutageIsLoggedOnceAndTheStateSaysSince() throws {
    let port = try LineServer.freePort()
    let logged = LockedLines()
    let sink = RemoteSink(
      host: "127.0.0.1", port: port, initialBackoff: 0.02, maximumBackoff: 0.05, log: { logged.append($0) })
    defer { sink.close() }
    XCTAssertEqual(sink.connectionState, .connecting)
    for seq in 1...5 { sink.send(record(seq)) }
    XCTAssertTrue(waitUntil { logged.count == 1 })
    usleep(400_000)  // several more attempts fail
    XCTAssertEqual(logged.all.count, 1, "once per outage, not per attempt: \(logged.all)")
    XCTAssertTrue(
      logged.all[0].hasPrefix("cannot reach tagscope listen at 127.0.0.1:\(port) ("), logged.all[0])
    guard case .waiting(let since, let reason) = sink.connectionState else {
      return XCTFail("\(sink.connectionState)")
    }
    XCTAssertLessThan(Date().timeIntervalSince(since), 5)
    XCTAssertFalse(reason.isEmpty)
    let server = try LineServer(port: port)
    XCTAssertTrue(server.wait { $0.count == 6 })
    XCTAssertTrue(waitUntil { logged.count == 2 })
    XCTAssertTrue(logged.all[1].contains("connected to tagscope listen"), logged.all[1])
    XCTAssertEqual(sink.connectionState, .connected)
    server.stop()
    sink.send(record(6))
    XCTAssertTrue(waitUntil { logged.count == 3 })
    XCTAssertTrue(logged.all[2].hasPrefix("lost tagscope listen"), logged.all[2])
  }

  func testNothingIsKeptForResendingWhenTheServerNeverAcknowledges() throws {
    let server = try LineServer()
    defer { server.stop() }
    let sink = RemoteSink(host: "127.0.0.1", port: server.port)
    defer { sink.close() }
    for seq in 1...10 { sink.send(record(seq)) }
    XCTAssertTrue(server.wait { $0.count == 11 })
    usleep(1_200_000)  // past the grace a server has to answer the header
    sink.send(record(11))
    XCTAssertTrue(server.wait { $0.count == 12 })
    sink.flush()
    XCTAssertEqual(sink.unacknowledgedCount, 0, "a plain socket gets the old behaviour")
    XCTAssertTrue(sink.waitUntilAcknowledged(timeout: 1), "nothing waits for it either")
  }

  func testKeepsLinesUntilTheServerIsThereAndReconnectsAfterItGoesAway() throws {
    let port = try LineServer.freePort()
    let sink = RemoteSink(host: "127.0.0.1", port: port, initialBackoff: 0.05, maximumBackoff: 0.2)
    defer { sink.close() }
    // Nobody listens yet: send never blocks.
    let start = Date()
    for seq in 1...50 { sink.send(record(seq)) }
    XCTAssertLessThan(Date().timeIntervalSince(start), 0.05 * timingSlack)
    usleep(150_000)
    XCTAssertFalse(sink.isConnected)

    let server = try LineServer(port: port)
    defer { server.stop() }
    XCTAssertTrue(server.wait { $0.count == 51 }, "the 50 waiting records arrive after the header")
    XCTAssertEqual(sink.connectionCount, 1)

    server.dropConnection()
    XCTAssertTrue(waitUntil { !sink.isConnected || sink.connectionCount == 2 })
    var seq = 51
    // Keep sending until the sink has reconnected and a record reaches the second connection.
    let reconnected = server.wait(timeout: 10) { lines in
      if seq < 5000 {
        seq += 1
        sink.send(self.record(seq))
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
    // the last batch handed to the kernel just before the server cut the connection: TCP gives no
    // receipt for it (at most one 10 ms batch; the test sends one record every ~2 ms).
    let receivedSeqs = Set(server.lines.compactMap { try? RecordLineDecoder.decodeRecord($0.line).seq })
    let markers = server.lines.compactMap { line -> DropMarker? in
      guard case .dropped(let marker)? = try? RecordLineDecoder.decode(line.line) else { return nil }
      return marker
    }
    XCTAssertGreaterThanOrEqual(
      receivedSeqs.count + sink.droppedCount, seq - 10,
      "received \(receivedSeqs.count), dropped \(sink.droppedCount)")
    XCTAssertLessThanOrEqual(receivedSeqs.count + sink.droppedCount, seq)
    XCTAssertEqual(
      receivedSeqs.filter { $0 <= 50 }.count, 50, "nothing sent before the server existed was lost")
    XCTAssertEqual(markers.map(\.count).reduce(0, +), sink.droppedCount)
  }

  func testNeverBlocksAndCountsDropsWhenTheQueueIsFull() throws {
    let port = try LineServer.freePort()
    let sink = RemoteSink(host: "127.0.0.1", port: port, capacity: 100, initialBackoff: 10)
    let start = Date()
    for seq in 1...10_000 { sink.send(record(seq)) }
    XCTAssertLessThan(Date().timeIntervalSince(start), 1 * timingSlack)
    sink.close()
    XCTAssertEqual(sink.droppedCount, 10_000, "nothing could be sent; everything is counted")
  }

  private func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition() { return true }
      usleep(2000)
    }
    return condition()
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
