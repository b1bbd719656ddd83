import Foundation
import NIOCore
import NIOEmbedded
import NIOSSL
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A TLS client of `tagscope proxy` that ends its side after its request, inside an intercepted
/// `CONNECT`, still gets its answer, as a plain-HTTP one does (``ProxyHalfCloseTests``): whether it
/// ends TLS properly (a `close_notify`, then a TCP half-close) or raggedly (a TCP half-close
/// alone, which NIOSSL reports as an unclean shutdown), answered by `listen`'s handler
/// (`--no-forward`) or by the vendor the request is forwarded to; then the proxy closes: a proper
/// end with its own `close_notify`, a ragged one at once. The client is Python's `ssl`
/// (`scripts/sdk-clients/tls_half_close_client.py`) trusting the proxy's CA.
final class ProxyTLSHalfCloseTests: XCTestCase {
  private var directory: URL!
  private var vendor: VendorServer!

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-tls-half-close-\(UUID().uuidString)")
    vendor = try await VendorServer.start(
      hosts: ["api.segment.io"], directory: directory.appendingPathComponent("vendor"))
  }

  override func tearDown() async throws {
    await vendor.shutdown()
    try? FileManager.default.removeItem(at: directory)
  }

  func testATLSClientThatEndsItsSideIsAnsweredLocallyAndWhenForwarded() async throws {
    for forward in [false, true] {
      var configuration = ListenConfiguration(port: 0)
      configuration.proxy = ProxyConfiguration(
        port: 0, forward: forward, authorityDirectory: directory.appendingPathComponent("proxy-ca"),
        resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: vendor.port)],
        upstreamTrustRoots: vendor.authority.certificateFile.path)
      let (server, collector) = try await startServer(configuration)
      let caFile = directory.appendingPathComponent("proxy-ca/ca.pem").path
      for (index, mode) in ["close_notify", "ragged"].enumerated() {
        let result = try runPython(
          "scripts/sdk-clients/tls_half_close_client.py",
          arguments: [String(server.proxyPort ?? 0), "api.segment.io", caFile, mode], environment: [:],
          hangGuard: 120)
        XCTAssertEqual(result.status, 0, "forward \(forward), \(mode): \(result.output)")
        XCTAssertTrue(
          result.output.hasPrefix("HTTP/1.1 200"), "forward \(forward), \(mode): \(result.output)")
        // A proper end answered by the proxy's close_notify; a ragged one by a close alone
        // (``RaggedTLSEnd``), not by a close_notify and a 5 s wait for the client's.
        let end = mode == "ragged" ? "end: eof" : "end: close_notify"
        XCTAssertTrue(result.output.contains(end), "forward \(forward), \(mode): \(result.output)")
        XCTAssertEqual(collector.waitForRecords(index + 1).count, index + 1, server.statistics.summary)
      }
      XCTAssertTrue(eventually { server.statistics.openConnections == 0 }, server.statistics.summary)
      try await server.shutdown()
    }
    XCTAssertEqual(vendor.requests.count, 2, "each forwarded once")
  }

  /// After a ragged end, a close goes past the TLS handler to the connection's first handler as
  /// ``LingeringClose/CloseWhenSent``: NIOSSL would wait its shutdown timeout (5 s) for the client's
  /// `close_notify`, which cannot come. Before it, or for a close of the output only, the close
  /// goes on as asked.
  func testAfterARaggedEndACloseSkipsTheTLSShutdownWait() throws {
    for ragged in [false, true] {
      let front = CloseRecorder()
      let channel = EmbeddedChannel(handlers: [front, RaggedTLSEnd()])
      if ragged {
        channel.pipeline.fireErrorCaught(NIOSSLError.uncleanShutdown)
        XCTAssertThrowsError(try channel.throwIfErrorCaught(), "the error passed on")
      }
      try channel.close(mode: .all).wait()
      XCTAssertEqual(front.closedPastTLS, ragged ? 1 : 0, "ragged \(ragged)")
      XCTAssertEqual(front.closes, ragged ? 0 : 1, "ragged \(ragged)")
    }
  }
}

/// Stands where ``LingeringClose`` does: counts the closes that reach it and the ``LingeringClose/CloseWhenSent``
/// events, each closing the channel.
private final class CloseRecorder: ChannelOutboundHandler {
  typealias OutboundIn = NIOAny
  var closes = 0
  var closedPastTLS = 0

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    closes += 1
    context.close(mode: mode, promise: promise)
  }

  func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?)
  {
    guard event is LingeringClose.CloseWhenSent else {
      context.triggerUserOutboundEvent(event, promise: promise)
      return
    }
    closedPastTLS += 1
    context.close(mode: .all, promise: promise)
  }
}
