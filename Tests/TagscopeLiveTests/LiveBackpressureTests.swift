import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// A real server enqueueing into a live session whose store is slower than the clients: HTTP gets
/// `503` + `Retry-After` while the queue is full, a native stream is read more slowly, and every
/// record the server acknowledged is in the recording.
final class LiveBackpressureTests: XCTestCase {
  private func segmentBatch(_ names: Range<Int>) -> String {
    let events = names.map { #"{"type":"track","userId":"u","event":"E\#($0)"}"# }
    return #"{"batch":[\#(events.joined(separator: ","))]}"#
  }

  func testHTTPGets503WithRetryAfterWhileTheQueueIsFullAndEvery200IsRecorded() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store, capacity: 50)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let port = server.port

    // The first batch's 200 comes once it is written (an acknowledgement means durable).
    let first = LockedArray<Int>()
    let firstBody = segmentBatch(0..<60)
    Thread {
      let reply = try? httpRequest(port: port, path: "/v1/batch", body: firstBody)
      first.append(reply?.status ?? -1)
    }.start()
    XCTAssertTrue(eventually { store.batchCount == 1 }, "the worker holds the first batch")
    // The store is stuck, yet the event loop answers at once: it only parses and enqueues.
    let client = try RawClient(port: port)
    let body = segmentBatch(60..<70)
    client.send(
      "POST /v1/batch HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    let reply = String(decoding: client.readAll(), as: UTF8.self)
    XCTAssertTrue(reply.hasPrefix("HTTP/1.1 503"), reply)
    XCTAssertTrue(reply.contains("Retry-After: 1\r\n"), reply)

    XCTAssertEqual(first.all, [], "no 200 before the first batch is written")
    store.setOpen(true)
    XCTAssertTrue(eventually { first.all == [200] }, "\(first.all)")
    XCTAssertTrue(eventually { session.hasRoom })
    XCTAssertEqual(try httpRequest(port: port, path: "/v1/batch", body: segmentBatch(70..<75))?.status, 200)
    try await server.shutdown()
    session.close()

    let names = try recordedRecords(url).map(\.name)
    XCTAssertEqual(names, (0..<60).map { "E\($0)" } + (70..<75).map { "E\($0)" }, "the 503'd batch is not in")
    XCTAssertEqual(server.statistics.busyReplies, 1)
    XCTAssertEqual(server.statistics.accepted, 65)
    XCTAssertTrue(server.statistics.summary.contains("held back 1 requests"), server.statistics.summary)
  }

  func testANativeStreamIsReadMoreSlowlyWhileTheQueueIsFullAndNothingIsLost() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store, capacity: 200)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let total = 20_000
    var stream = #"{"format":"tagscope-recording","version":1,"app":"Podcasts","device":"sim"}"# + "\n"
    for seq in 1...total {
      stream += #"{"seq":\#(seq),"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"s\#(seq)"}"# + "\n"
    }
    let client = try RawClient(port: server.port)
    let bytes = Array(stream.utf8)
    let sender = Thread { client.send(bytes) }
    sender.start()
    XCTAssertTrue(eventually { server.statistics.pausedReads > 0 }, "the server stopped reading")
    // The server goes on serving meanwhile (a request gets 503: the queue is full), and the stream
    // stays paused.
    XCTAssertEqual(
      try httpRequest(port: server.port, path: "/v1/batch", body: segmentBatch(0..<1))?.status, 503)
    let heldBack = session.peakLoad
    XCTAssertLessThan(heldBack, total / 2, "the queue did not take the whole stream: peak \(heldBack)")
    store.setOpen(true)
    XCTAssertTrue(eventually { server.statistics.accepted == total }, "\(server.statistics)")
    try await server.shutdown()
    session.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), (1...total).map(UInt64.init))
    XCTAssertGreaterThan(server.statistics.pausedReads, 0)
  }
}
