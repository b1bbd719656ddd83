import NIOCore
import NIOEmbedded
import XCTest

@testable import TagscopeServer

/// `listen`'s SDK request pipeline, a stage at a time, on an `EmbeddedChannel` (virtual time): its
/// admission (limits, encoding, token, busy), its body collection (size, deadline), its intake
/// (stored before answered) and its replies from the head (pipelining, half-close).
final class ListenPipelineStageTests: XCTestCase {
  private let track = #"{"type":"track","userId":"u","event":"E"}"#
  private let json = "Content-Type: application/json"

  private func connection(
    _ ingest: SteeredIngest = SteeredIngest(), token: String? = nil, maximumBodyBytes: Int = 4_096
  ) throws -> (PipelineConnection, ServerContext) {
    let server = ServerContext(
      configuration: ListenConfiguration(
        host: "127.0.0.1", port: 0, token: token, maximumBodyBytes: maximumBodyBytes,
        requestTimeout: .seconds(30)),
      ingest: ingest)
    return (try PipelineConnection.listen(server), server)
  }

  // MARK: Admission

  func testABodyDeclaredTooLargeIsAnsweredAtOnceOnceAndDrainedBeforeTheClose() throws {
    let ingest = SteeredIngest()
    let (client, server) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json, "Content-Length: 10000"]))
    let answered = try client.written()
    XCTAssertEqual(pipelineStatusLines(answered), ["HTTP/1.1 400 Bad Request"], answered)
    XCTAssertTrue(answered.contains("Connection: close"), answered)
    // The body still comes: read and discarded, the connection open until its end.
    try client.send(bytes: 6_000)
    XCTAssertTrue(client.isOpen, "closed before the refused body was drained")
    try client.send(bytes: 4_000)
    XCTAssertEqual(try client.written(), "", "answered once")
    XCTAssertFalse(client.isOpen)
    XCTAssertEqual(ingest.records, 0)
    XCTAssertEqual(server.statistics.snapshot.rejected[.bodyTooLarge], 1)
  }

  func testAChunkedBodyPastItsLimitIsAnsweredOnceAndClosedAtOnce() throws {
    let (client, server) = try connection()
    defer { _ = try? client.channel.finish() }
    let chunk = "bb8\r\n" + String(repeating: "x", count: 3_000) + "\r\n"
    try client.send(pipelineRequest("/v1/track", headers: [json, "Transfer-Encoding: chunked"]) + chunk)
    XCTAssertEqual(try client.written(), "")
    try client.send(chunk + chunk)
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 400 Bad Request"])
    XCTAssertFalse(client.isOpen, "a chunk size past the limit is refused as it is declared")
    XCTAssertEqual(server.statistics.snapshot.rejected[.bodyTooLarge], 1, "counted once")
  }

  func testABodyInAnEncodingNotDecompressedIsAnswered415OnceAndDrained() throws {
    let (client, server) = try connection()
    defer { _ = try? client.channel.finish() }
    try client.send(
      pipelineRequest("/v1/track", headers: [json, "Content-Encoding: br", "Content-Length: 100"]))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 415 Unsupported Media Type"])
    try client.send(bytes: 60)
    XCTAssertTrue(client.isOpen)
    try client.send(bytes: 40)
    XCTAssertEqual(try client.written(), "")
    XCTAssertFalse(client.isOpen)
    XCTAssertEqual(server.statistics.snapshot.rejected[.badEncoding], 1)
  }

  func testABodyWithoutTheTokenIsAnswered401OnceTakesNothingAndKeepsTheConnection() throws {
    let ingest = SteeredIngest()
    let (client, _) = try connection(ingest, token: "secret")
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 401 Unauthorized"])
    XCTAssertEqual(ingest.records, 0)
    XCTAssertTrue(client.isOpen)
    try client.send(
      pipelineRequest("/v1/track", headers: [json, "Authorization: Bearer secret"], body: track))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 200 OK"])
    XCTAssertEqual(ingest.records, 1)
  }

  func testABusySessionAnswers503WithRetryAfterAndTakesNothing() throws {
    let ingest = SteeredIngest(room: false)
    let (client, server) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    let answered = try client.written()
    XCTAssertEqual(pipelineStatusLines(answered), ["HTTP/1.1 503 Service Unavailable"], answered)
    XCTAssertTrue(answered.contains("Retry-After: \(RequestPolicy.busyRetrySeconds)\r\n"), answered)
    XCTAssertEqual(ingest.records, 0)
    XCTAssertEqual(server.statistics.snapshot.busyReplies, 1)
    XCTAssertTrue(client.isOpen, "a keep-alive client retries on the same connection")
  }

  // MARK: Answered from the head

  func testRequestsAnsweredFromTheirHeadArePipelinedEachAnsweredOnceInOrder() throws {
    let (client, _) = try connection()
    defer { _ = try? client.channel.finish() }
    try client.send(
      pipelineRequest("/no-such-endpoint", method: "GET") + pipelineRequest("/v1/track", method: "GET")
        + pipelineRequest("/v1/track", headers: [json], body: track))
    let answered = try client.written()
    XCTAssertEqual(
      pipelineStatusLines(answered),
      ["HTTP/1.1 404 Not Found", "HTTP/1.1 405 Method Not Allowed", "HTTP/1.1 200 OK"], answered)
    XCTAssertTrue(client.isOpen)
  }

  func testARequestAnsweredFromItsHeadThenAHalfCloseIsAnsweredThenClosed() throws {
    let (client, _) = try connection()
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/no-such-endpoint", method: "GET"))
    client.halfClose()
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 404 Not Found"])
    XCTAssertFalse(client.isOpen)
  }

  func testARefusalToAClientWaitingForContinueClosesAtOnceAndWhatFollowsIsNotAnswered() throws {
    let (client, _) = try connection()
    defer { _ = try? client.channel.finish() }
    try client.send(
      pipelineRequest("/v1/track", headers: [json, "Expect: 100-continue", "Content-Length: 10000"])
        + pipelineRequest("/no-such-endpoint", method: "GET"))
    let answered = try client.written()
    XCTAssertEqual(pipelineStatusLines(answered), ["HTTP/1.1 400 Bad Request"], answered)
    XCTAssertFalse(answered.contains("100 Continue"), answered)
    XCTAssertFalse(client.isOpen, "closed without waiting for a body the client holds back")
  }

  // MARK: Deadlines and storage

  func testASlowBodyIsAnswered408OnceThenClosed() throws {
    let (client, server) = try connection()
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json, "Content-Length: 100"]) + "{")
    client.advance(by: .seconds(29))
    XCTAssertEqual(try client.written(), "")
    client.advance(by: .seconds(1))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 408 Request Timeout"])
    XCTAssertFalse(client.isOpen)
    client.advance(by: .seconds(60))
    XCTAssertEqual(try client.written(), "", "answered once")
    XCTAssertEqual(server.statistics.snapshot.timeouts[.request], 1)
  }

  func testTheReplyWaitsUntilTheRecordsAreStored() throws {
    let ingest = SteeredIngest(holdsStorage: true)
    let (client, _) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    XCTAssertEqual(try client.written(), "", "not answered before stored")
    XCTAssertEqual(ingest.records, 1)
    ingest.releaseStorage()
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 200 OK"])
  }

  func testTheCollectedBodyIsLetGoOnceTakenInWhileItsRecordsAreStored() throws {
    let ingest = SteeredIngest(holdsStorage: true)
    let (client, _) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    client.channel.allocator = countingAllocator
    let before = liveBufferBytes.bytes
    let body =
      #"{"type":"track","userId":"u","event":"E","properties":{"p":""#
      + String(repeating: "x", count: 2_000) + #""}}"#
    try client.send(pipelineRequest("/v1/track", headers: [json], body: body))
    XCTAssertEqual(ingest.records, 1)
    XCTAssertEqual(try client.written(), "", "not answered before stored")
    XCTAssertLessThan(
      liveBufferBytes.bytes - before, body.utf8.count, "the body is not held to the reply beside its copy")
    ingest.releaseStorage()
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 200 OK"])
  }

  func testRecordsNotStoredInTimeAreAnswered503OnceAndTheLateStoreAnswersNothing() throws {
    let ingest = SteeredIngest(holdsStorage: true)
    let (client, _) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    client.advance(by: .seconds(30))
    let answered = try client.written()
    XCTAssertEqual(pipelineStatusLines(answered), ["HTTP/1.1 503 Service Unavailable"], answered)
    XCTAssertTrue(answered.contains("Retry-After: 1\r\n"), answered)
    ingest.releaseStorage()
    XCTAssertEqual(try client.written(), "", "answered once")
  }
}
