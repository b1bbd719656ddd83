import Dispatch
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 31: `ProtocolDetector` acts on a connection's first read only. It adds the protocol's
/// handlers and leaves the pipeline once it has passed that read on to them; every read after it
/// goes to the one set of handlers added, also one NIO delivers while the first is being passed on:
/// a write that fails (the client reset) makes NIO drain the socket from within that flush
/// (`BaseSocketChannel.flushNow`), firing the next bytes from the head of the pipeline, through
/// the detector, still there. Acting on those too added a second set of protocol handlers (the
/// fresh-clone CI's crash: a response passing through a second HTTP codec).
final class ProtocolDetectorTests: XCTestCase {
  /// A native client asking for acknowledgements sends its header and more lines, then resets,
  /// all while the server's only event loop is held: the server's first read of the connection
  /// holds the header, whose acknowledgement (written within that read) fails, and NIO drains the
  /// rest from within that write. The rest goes to the native stream (closed by then, so it is
  /// dropped unread): none of it is taken for an HTTP request nor for a second native stream.
  func testBytesDrainedWhileTheFirstReadIsPassedOnGoToTheHandlersAlreadyAdded() async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(host: "127.0.0.1", port: 0), group: group, ingest: CapturingIngest())
    let client = try RawClient(port: server.port)
    XCTAssertTrue(eventually { server.statistics.openConnections == 1 })
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    group.next().execute {
      held.signal()
      release.wait()
    }
    held.wait()
    let header = #"{"format":"tagscope-recording","version":1,"app":"A","device":"sim","ack":true}"# + "\n"
    // Lines that are neither records nor a header; each read past the first starts with one of
    // their bytes, which on its own would pass for an HTTP method (or a native header's blank).
    let lines = String(repeating: String(repeating: "A", count: 63) + "\n", count: 400)
    XCTAssertTrue(client.send(Array((header + lines).utf8)))
    var abrupt = linger(l_onoff: 1, l_linger: 0)
    setsockopt(client.descriptor, SOL_SOCKET, SO_LINGER, &abrupt, socklen_t(MemoryLayout<linger>.size))
    client.disconnect()
    release.signal()
    XCTAssertTrue(eventually { server.statistics.openConnections == 0 })
    let statistics = server.statistics
    try await server.shutdown()
    try await group.shutdownGracefully()
    XCTAssertEqual(statistics.nativeStreams, 1, statistics.summary)
    XCTAssertEqual(statistics.httpRequests, 0, statistics.summary)
    // Taken for a second protocol, they would be refused as one: a bad HTTP request (a 400 written)
    // or a bad native header.
    XCTAssertEqual(statistics.totalRejected, 0, statistics.summary)
  }

  private func connection() throws -> EmbeddedChannel {
    let server = ServerContext(
      configuration: ListenConfiguration(host: "127.0.0.1", port: 0), ingest: CapturingIngest())
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandlers(
      ConnectionGuard(server: server), ProtocolDetector(server: server))
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    return channel
  }

  private func buffer(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

  /// How many handlers of the pipeline have a type named `name` (a line each in its description).
  private func count(_ name: String, in channel: EmbeddedChannel) -> Int {
    channel.pipeline.debugDescription.split(separator: "\n").filter { $0.contains(name) }.count
  }

  /// Everything written to the client so far, as text.
  private func written(_ channel: EmbeddedChannel) throws -> String {
    var text = ""
    while let part = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: part) }
    return text
  }

  func testAnHTTPRequestSplitAfterItsFirstByteIsDetectedOnceAndEveryRequestAnsweredOnce() throws {
    let channel = try connection()
    defer { _ = try? channel.finish() }
    let request = "GET /no-such-endpoint HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    try channel.writeInbound(buffer(String(request.prefix(1))))
    XCTAssertEqual(count("ProtocolDetector", in: channel), 0, "the detector left within its read")
    // The rest of the request and two more pipelined behind it, in the next read.
    try channel.writeInbound(buffer(String(request.dropFirst()) + request + request))
    channel.embeddedEventLoop.run()
    let replies = try written(channel)
    XCTAssertEqual(replies.components(separatedBy: "HTTP/1.1 404 Not Found\r\n").count - 1, 3, replies)
    XCTAssertEqual(count("HTTPServerPipelineHandler", in: channel), 1, channel.pipeline.debugDescription)
    XCTAssertEqual(count("RequestPipeline<ListenReplyStage>", in: channel), 1)
    XCTAssertEqual(count("NativeStreamHandler", in: channel), 0)
  }

  func testANativeHeaderSplitAfterItsFirstByteIsDetectedOnce() throws {
    let channel = try connection()
    defer { _ = try? channel.finish() }
    let header = #"{"format":"tagscope-recording","version":1,"app":"A","device":"sim","ack":true}"# + "\n"
    try channel.writeInbound(buffer("{"))
    XCTAssertEqual(count("ProtocolDetector", in: channel), 0)
    try channel.writeInbound(buffer(String(header.dropFirst())))
    channel.embeddedEventLoop.run()
    XCTAssertEqual(try written(channel), "{\"ack\":0}\n", "the header reached the one native handler")
    XCTAssertEqual(count("NativeStreamHandler", in: channel), 1, channel.pipeline.debugDescription)
    XCTAssertEqual(count("HTTPServerPipelineHandler", in: channel), 0)
  }
}
