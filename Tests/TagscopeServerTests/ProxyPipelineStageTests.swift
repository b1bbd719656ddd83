import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import TagscopeServer

/// The proxy's SDK request pipeline on an `EmbeddedChannel` (virtual time), its upstream an
/// `EmbeddedChannel` too: the same admission, collection and intake as `listen`'s, then a forward
/// stage that sends the request on only once its records are stored and relays the vendor's
/// answer.
final class ProxyPipelineStageTests: XCTestCase {
  private var directory: URL!
  private let track = #"{"type":"track","userId":"u","event":"E"}"#
  private let json = "Content-Type: application/json"

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-stages-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  /// The upstream connections the forward stage opened, each an `EmbeddedChannel` on the
  /// client's event loop.
  private final class Upstreams {
    var channels: [EmbeddedChannel] = []
    /// Whether connecting fails (the vendor unreachable).
    var unreachable = false
  }

  private func connection(_ ingest: SteeredIngest) throws -> (PipelineConnection, Upstreams, ServerContext) {
    let server = ServerContext(
      configuration: ListenConfiguration(host: "127.0.0.1", port: 0, maximumBodyBytes: 4_096), ingest: ingest)
    let proxy = try ProxyContext(
      configuration: ProxyConfiguration(port: 0, authorityDirectory: directory.appendingPathComponent("ca")),
      server: server)
    let channel = EmbeddedChannel()
    let upstreams = Upstreams()
    let loop = channel.embeddedEventLoop
    let forwarding = ForwardingHandler(
      proxy: proxy, host: "api.segment.io", port: 443, secure: true, decodes: true,
      connect: { _, _, _, _, relay in
        if upstreams.unreachable { return loop.makeFailedFuture(ChannelError.connectTimeout(.seconds(1))) }
        let upstream = EmbeddedChannel(handler: relay, loop: loop)
        upstreams.channels.append(upstream)
        return upstream.connect(to: try! SocketAddress(ipAddress: "127.0.0.1", port: 443)).map { upstream }
      })
    try channel.pipeline.syncOperations.addHandlers([
      HTTPResponseEncoder(), ChunkSizeGuard(limit: server.configuration.maximumBodyBytes),
      ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
      HTTPServerPipelineHandler(), forwarding,
    ])
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    return (PipelineConnection(channel: channel), upstreams, server)
  }

  /// The request parts the upstream `channel` was sent.
  private func forwarded(_ channel: EmbeddedChannel) throws -> [HTTPClientRequestPart] {
    var parts: [HTTPClientRequestPart] = []
    while let part = try channel.readOutbound(as: HTTPClientRequestPart.self) { parts.append(part) }
    return parts
  }

  /// The vendor answers `200` with a small body.
  private func answer(on channel: EmbeddedChannel) throws {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Length", value: "16")
    try channel.writeInbound(
      HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
    try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: #"{"success":true}"#)))
    try channel.writeInbound(HTTPClientResponsePart.end(nil))
  }

  func testTheForwardStageSendsOnAndRelaysOnlyOnceTheRecordsAreStored() throws {
    let ingest = SteeredIngest(holdsStorage: true)
    let (client, upstreams, _) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    XCTAssertEqual(try client.written(), "")
    XCTAssertEqual(ingest.records, 1, "decoded and delivered")
    XCTAssertTrue(upstreams.channels.isEmpty, "nothing reaches the vendor before the records are stored")
    ingest.releaseStorage()
    client.advance()
    let upstream = try XCTUnwrap(upstreams.channels.first)
    let parts = try forwarded(upstream)
    guard case .head(let head)? = parts.first else { return XCTFail("no head forwarded: \(parts)") }
    XCTAssertEqual(head.uri, "/v1/track")
    let sent = parts.reduce(into: "") { text, part in
      if case .body(.byteBuffer(let bytes)) = part { text += String(buffer: bytes) }
    }
    XCTAssertEqual(sent, track, "the body is kept to be forwarded whole")
    XCTAssertEqual(try client.written(), "", "relayed only once the vendor answers")
    try answer(on: upstream)
    let relayed = try client.written()
    XCTAssertEqual(pipelineStatusLines(relayed), ["HTTP/1.1 200 OK"], relayed)
    XCTAssertTrue(relayed.hasSuffix(#"{"success":true}"#), relayed)
    XCTAssertEqual(upstreams.channels.count, 1)
  }

  func testABusySessionAnswers503WithRetryAfterAndForwardsNothing() throws {
    let ingest = SteeredIngest(room: false)
    let (client, upstreams, server) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    let answered = try client.written()
    XCTAssertEqual(pipelineStatusLines(answered), ["HTTP/1.1 503 Service Unavailable"], answered)
    XCTAssertTrue(answered.contains("Retry-After: \(RequestPolicy.busyRetrySeconds)\r\n"), answered)
    XCTAssertTrue(upstreams.channels.isEmpty, "nothing forwarded")
    XCTAssertEqual(ingest.records, 0)
    XCTAssertEqual(server.statistics.snapshot.busyReplies, 1)
  }

  func testABodyDeclaredTooLargeIsAnsweredOnceDrainedAndNotForwarded() throws {
    let (client, upstreams, _) = try connection(SteeredIngest())
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json, "Content-Length: 10000"]))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 400 Bad Request"])
    try client.send(bytes: 6_000)
    XCTAssertTrue(client.isOpen, "closed before the refused body was drained")
    try client.send(bytes: 4_000)
    XCTAssertEqual(try client.written(), "", "answered once")
    XCTAssertFalse(client.isOpen)
    XCTAssertTrue(upstreams.channels.isEmpty)
  }

  func testABodyInAnEncodingNotDecompressedIsAnswered415OnceAndNotForwarded() throws {
    let (client, upstreams, _) = try connection(SteeredIngest())
    defer { _ = try? client.channel.finish() }
    try client.send(
      pipelineRequest("/v1/track", headers: [json, "Content-Encoding: br", "Content-Length: 10"]))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 415 Unsupported Media Type"])
    try client.send(bytes: 10)
    XCTAssertEqual(try client.written(), "")
    XCTAssertFalse(client.isOpen)
    XCTAssertTrue(upstreams.channels.isEmpty)
  }

  func testASlowBodyIsAnswered408OnceAndNotForwarded() throws {
    let (client, upstreams, _) = try connection(SteeredIngest())
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json, "Content-Length: 100"]) + "{")
    client.advance(by: .seconds(30))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 408 Request Timeout"])
    XCTAssertFalse(client.isOpen)
    client.advance(by: .seconds(60))
    XCTAssertEqual(try client.written(), "", "answered once")
    XCTAssertTrue(upstreams.channels.isEmpty)
  }

  func testRecordsNotStoredInTimeAreAnswered503OnceAndNeverForwarded() throws {
    let ingest = SteeredIngest(holdsStorage: true)
    let (client, upstreams, _) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    client.advance(by: .seconds(30))
    let answered = try client.written()
    XCTAssertEqual(pipelineStatusLines(answered), ["HTTP/1.1 503 Service Unavailable"], answered)
    XCTAssertTrue(answered.contains("Retry-After: 1\r\n"), answered)
    ingest.releaseStorage()
    client.advance()
    XCTAssertEqual(try client.written(), "", "answered once")
    XCTAssertTrue(upstreams.channels.isEmpty, "the SDK's retry is forwarded, not this request")
  }

  func testAnUnreachableVendorIsAnswered502OnceByTheProxyThenClosed() throws {
    let (client, upstreams, server) = try connection(SteeredIngest())
    defer { _ = try? client.channel.finish() }
    upstreams.unreachable = true
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    let answered = try client.written()
    XCTAssertEqual(pipelineStatusLines(answered), ["HTTP/1.1 502 Bad Gateway"], answered)
    XCTAssertTrue(answered.contains("api.segment.io:443 unreachable"), answered)
    XCTAssertFalse(client.isOpen)
    XCTAssertEqual(server.statistics.snapshot.upstreamFailures, 1)
  }

  func testAVendorSilentPastTheUpstreamTimeoutIsAnswered504OnceAndItsLateAnswerDropped() throws {
    let (client, upstreams, _) = try connection(SteeredIngest())
    defer { _ = try? client.channel.finish() }
    try client.send(pipelineRequest("/v1/track", headers: [json], body: track))
    client.advance()
    let upstream = try XCTUnwrap(upstreams.channels.first)
    client.advance(by: ProxyConfiguration(port: 0).upstreamTimeout)
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 504 Gateway Timeout"])
    try? answer(on: upstream)
    XCTAssertEqual(try client.written(), "", "answered once")
    XCTAssertFalse(client.isOpen)
  }

  // MARK: One state machine: what listen does, the proxy does

  func testARequestCutOffInItsBodyIsCountedAsTruncatedOnceAsListenCountsIt() throws {
    let (client, upstreams, server) = try connection(SteeredIngest())
    try client.send(pipelineRequest("/v1/track", headers: [json, "Content-Length: 100"]) + "{")
    try client.channel.close().wait()
    XCTAssertEqual(server.statistics.snapshot.truncated, 1)
    XCTAssertTrue(upstreams.channels.isEmpty)
  }

  func testARefusedBodyNotCompleteInTimeIsReportedAsListenReportsIt() throws {
    let ingest = SteeredIngest()
    let (client, _, _) = try connection(ingest)
    defer { _ = try? client.channel.finish() }
    try client.send(
      pipelineRequest("/v1/track", headers: [json, "Content-Encoding: br", "Content-Length: 10"]))
    XCTAssertEqual(pipelineStatusLines(try client.written()), ["HTTP/1.1 415 Unsupported Media Type"])
    client.advance(by: .seconds(30))
    XCTAssertFalse(client.isOpen)
    XCTAssertEqual(
      ingest.problems.filter { $0.contains("not complete in time") }.count, 1, "\(ingest.problems)")
  }

  func testAReplyThenAHalfCloseInTheSameReadIsWrittenBeforeTheClose() throws {
    let (client, upstreams, _) = try connection(SteeredIngest(room: false))
    defer { _ = try? client.channel.finish() }
    try client.send(
      pipelineRequest("/v1/track", headers: [json], body: track)
        + pipelineRequest("/v1/track", headers: [json, "Content-Encoding: br"], body: "0123456789"))
    client.halfClose()
    let answered = try client.written()
    XCTAssertEqual(
      pipelineStatusLines(answered),
      ["HTTP/1.1 503 Service Unavailable", "HTTP/1.1 415 Unsupported Media Type"],
      answered)
    XCTAssertFalse(client.isOpen)
    XCTAssertTrue(upstreams.channels.isEmpty)
  }
}
