import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 31, acknowledgements that mean durable: an SDK request gets its `200` only once its records
/// are written and fsynced, and one fsync covers the requests of one batch (group commit).
final class DurableReplyTests: XCTestCase {
  func testSDKRepliesComeOnlyAfterTheWriteAndOneFsyncCoversManyRequests() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let replies = LockedArray<Int>()
    let requests = 20
    let clients = try (0..<requests).map { _ in try RawClient(port: server.port) }
    for (index, client) in clients.enumerated() {
      let body = #"{"writeKey":"k","type":"track","userId":"u\#(index)","event":"Durable"}"#
      let request =
        "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
      Thread {
        client.send(request)
        replies.append(client.readResponse()?.status ?? -1)
      }.start()
    }
    // Every request was taken and the worker waits at the closed store with the first batch.
    XCTAssertTrue(eventually { server.statistics.accepted == requests && store.batchCount >= 1 })
    XCTAssertEqual(replies.all, [], "no reply before the records are written")
    XCTAssertEqual(store.syncCount, 0)
    store.setOpen(true)
    XCTAssertTrue(eventually { replies.all.count == requests }, "\(replies.all)")
    XCTAssertEqual(replies.all, Array(repeating: 200, count: requests))
    XCTAssertGreaterThanOrEqual(store.syncCount, 1, "an fsync before the replies")
    XCTAssertLessThanOrEqual(store.syncCount, 2, "group commit: the batch at the gate, then all the rest")
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).count, requests)
  }

  /// A disk slower than the request timeout (tiny here): the SDK gets `503` + `Retry-After`
  /// rather than a silent close; the records, written once the disk takes them, are in the
  /// recording once and counted once.
  func testADiskSlowerThanTheRequestTimeoutAnswers503AndStillWritesTheRecordsOnce() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store)
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0, requestTimeout: .seconds(1)), ingest: session)
    let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Slow"}"#
    let (status, headers) = try RawClient.exchange(
      server.port,
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    XCTAssertEqual(status, 503)
    XCTAssertEqual(headers["retry-after"], "1")
    XCTAssertEqual(store.batchCount, 1, "the write is still held at the gate")
    XCTAssertEqual(server.statistics.timeouts[.request], 1)
    store.setOpen(true)
    session.flush()
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).map(\.name), ["Slow"], "written once, after the reply")
    XCTAssertEqual(server.statistics.accepted, 1)
  }

  func testWithoutAStoreRepliesStillComeAndNothingIsSynced() async throws {
    let session = LiveSession(store: nil)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let client = try RawClient(port: server.port)
    let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Memory"}"#
    client.send(
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    XCTAssertEqual(client.readResponse()?.status, 200)
    try await server.shutdown()
    session.close()
  }

  func testARequestWhoseRecordsCannotBeWrittenGetsNo200AndIsClosed() async throws {
    let session = LiveSession(store: UnwritableStore())
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0, requestTimeout: .milliseconds(300)), ingest: session)
    let client = try RawClient(port: server.port)
    let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Lost"}"#
    client.send(
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    let reply = client.readResponse()
    try await server.shutdown()
    session.close()
    XCTAssertNotEqual(reply?.status, 200, "a 200 would claim records the disk did not take")
    XCTAssertEqual(server.statistics.accepted, 1)
    XCTAssertEqual(server.statistics.timeouts[.request], 1, "closed by the server, not left hanging")
  }
}

/// A store whose every write fails (a full disk).
private final class UnwritableStore: LiveStore, @unchecked Sendable {
  private let lock = NSLock()
  private var failure: SystemError?

  func receive(_ items: [SinkItem]) {
    lock.withLock { failure = SystemError("write", "full.jsonl", .noSpace) }
  }

  var lastWriteError: SystemError? { lock.withLock { failure } }

  func flush() {}

  func close() {}
}
