import Foundation
import NIOCore
import NIOPosix
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A client of `tagscope proxy` that ends its side after sending (`shutdown(SHUT_WR)`) still gets
/// what it is owed, as `listen`'s clients do (``HalfCloseTests``): the answers to its requests
/// forwarded in plain HTTP, or, through a `CONNECT` tunnel, what the host sends after seeing the
/// half-close passed on to it; then the proxy closes. Real servers on loopback.
final class ProxyHalfCloseTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-half-close-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  private func startProxy(to upstream: Int, forward: Bool = true) async throws -> (ListenServer, Collector) {
    var configuration = ListenConfiguration(port: 0)
    configuration.host = "127.0.0.1"
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: forward, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: upstream)])
    return try await startServer(configuration)
  }

  private static func track(_ host: String, _ name: String) -> String {
    let body = #"{"type":"track","userId":"u","event":"\#(name)"}"#
    return "POST http://\(host)/v1/track HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  /// Plain HTTP forwarded (to a host the proxy does not decode, then to an SDK host, decoded and
  /// forwarded): pipelined requests then a half-close each get the vendor's answer, then a close.
  func testPlainHTTPRequestsThenAHalfCloseAreEachAnsweredThenClosed() async throws {
    let (vendor, vendorCollector) = try await startServer()
    let (server, collector) = try await startProxy(to: vendor.port)
    for host in ["vendor.test", "api.segment.io"] {
      let socket = try FuzzSocket(port: server.proxyPort ?? 0)
      socket.send(Array((Self.track(host, "one") + Self.track(host, "two")).utf8))
      socket.end(.halfClose)
      var received: [UInt8] = []
      XCTAssertEqual(socket.read(into: &received), .closed, host)
      XCTAssertEqual(HTTPResponseStream(received).statuses, [200, 200], host)
    }
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["one", "two"], "the SDK host's decoded")
    XCTAssertEqual(vendorCollector.waitForRecords(4).count, 4, "all four forwarded")
    XCTAssertTrue(eventually { server.statistics.openConnections == 0 }, server.statistics.summary)
    try await server.shutdown()
    try await vendor.shutdown()
  }

  /// With `--no-forward`, `listen`'s own handler answers behind the proxy: a half-close still gets
  /// the reply.
  func testPlainHTTPAnsweredLocallyThenAHalfCloseIsAnsweredThenClosed() async throws {
    let closed = closedPort
    let (server, collector) = try await startProxy(to: closed, forward: false)
    let socket = try FuzzSocket(port: server.proxyPort ?? 0)
    socket.send(Array(Self.track("api.segment.io", "local").utf8))
    socket.end(.halfClose)
    var received: [UInt8] = []
    XCTAssertEqual(socket.read(into: &received), .closed)
    XCTAssertEqual(HTTPResponseStream(received).statuses, [200])
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["local"])
    try await server.shutdown()
  }

  /// Through a `CONNECT` tunnel the client's half-close reaches the host as a half-close: the
  /// host, seeing the end of the client's bytes, still answers, and the client gets that answer
  /// before the proxy closes.
  func testATunnelPassesAHalfCloseOnAndRelaysWhatFollows() async throws {
    let host = try await EchoServer.start(farewell: true)
    let (server, _) = try await startProxy(to: host.port)
    let socket = try FuzzSocket(port: server.proxyPort ?? 0)
    socket.send(Array("CONNECT farewell.test:9 HTTP/1.1\r\nHost: farewell.test:9\r\n\r\n".utf8))
    var received: [UInt8] = []
    _ = socket.read(into: &received) { String(decoding: $0, as: UTF8.self).hasSuffix("\r\n\r\n") }
    XCTAssertTrue(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    received = []
    socket.send(Array("hello\n".utf8))
    socket.end(.halfClose)
    XCTAssertEqual(socket.read(into: &received), .closed)
    XCTAssertEqual(String(decoding: received, as: UTF8.self), "hello\nread 6 bytes, then the end\n")
    XCTAssertTrue(eventually { server.statistics.openConnections == 0 }, server.statistics.summary)
    XCTAssertEqual(server.statistics.tunnels, 1)
    try await server.shutdown()
    try await host.shutdown()
  }
}
