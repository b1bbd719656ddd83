import Foundation
import NIOCore
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// On a kept-alive plain-HTTP proxy connection each request is routed by its own target (issue
/// 42, item 3): with `--no-forward` an SDK request is answered locally whatever came before it on
/// the connection, and a request to any other host is forwarded whatever came before it.
final class ProxyRoutingTests: XCTestCase {
  private var directory: URL!
  private var vendor: PlainVendorServer!

  static let batch = #"{"writeKey":"wk-secret","batch":[{"type":"track","userId":"u-1","event":"Play"}]}"#

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("routing-\(UUID().uuidString)")
    vendor = try await PlainVendorServer.start()
  }

  override func tearDown() async throws {
    await vendor.shutdown()
    try? FileManager.default.removeItem(at: directory)
  }

  private func startProxy(forward: Bool) async throws -> (ListenServer, Collector) {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: forward, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: vendor.port)])
    return try await startServer(configuration)
  }

  static func segmentBatch(_ path: String = "/v1/batch") -> String {
    "POST http://api.segment.io\(path) HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(batch.utf8.count)\r\n\r\n\(batch)"
  }

  static func page(_ host: String, _ path: String) -> String {
    "GET http://\(host)\(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n"
  }

  /// `--no-forward`: after a request to another host (forwarded), an SDK batch on the same
  /// connection is recorded and answered by tagscope; the vendor never gets it, nor its write key.
  func testNoForwardNeverForwardsAnSDKRequestAfterAnotherHost() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    client.send(Self.page("unrelated.test", "/first"))
    let first = client.readResponse()
    XCTAssertEqual(first?.status, 200)
    XCTAssertEqual(first?.body, "vendor /first")
    client.send(Self.segmentBatch())
    let batch = client.readResponse()
    XCTAssertEqual(batch?.status, 200)
    XCTAssertFalse(batch?.body.hasPrefix("vendor") ?? true, String(describing: batch))
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["Play"])
    XCTAssertEqual(vendor.requests.map(\.target), ["/first"], "the batch was forwarded")
    try await server.shutdown()
  }

  /// `--no-forward`: after an SDK request (answered locally), a request to an unrelated host on
  /// the same connection is forwarded (not a local 404), and an SDK request after it is local
  /// again; a Host header does not override the target, and the vendor gets the target's.
  func testNoForwardForwardsOtherHostsAfterAnSDKRequest() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    client.send(Self.segmentBatch())
    XCTAssertEqual(client.readResponse()?.status, 200)
    client.send(Self.page("unrelated.test", "/page"))
    let page = client.readResponse()
    XCTAssertEqual(page?.status, 200)
    XCTAssertEqual(page?.body, "vendor /page")
    client.send(Self.segmentBatch())
    XCTAssertEqual(client.readResponse()?.status, 200)
    client.send("GET http://unrelated.test/again HTTP/1.1\r\nHost: api.segment.io\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.body, "vendor /again")
    XCTAssertEqual(collector.waitForRecords(2).count, 2)
    XCTAssertEqual(vendor.requests.map(\.target), ["/page", "/again"])
    XCTAssertEqual(vendor.requests.map(\.host), ["unrelated.test", "unrelated.test"])
    try await server.shutdown()
  }

  /// Forwarding on: each request goes to its own host, decoded when it is an SDK's, with the
  /// target's authority as its Host (a client's Host header naming another host was passed on).
  func testForwardingRoutesEachRequestToItsOwnHost() async throws {
    let (server, collector) = try await startProxy(forward: true)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    client.send(Self.page("one.test", "/a"))
    XCTAssertEqual(client.readResponse()?.body, "vendor /a")
    client.send(Self.segmentBatch())
    XCTAssertEqual(client.readResponse()?.body, "vendor /v1/batch")
    // A Host header that names another host: the target decides, and the vendor gets its Host.
    client.send("GET http://two.test:8080/b HTTP/1.1\r\nHost: one.test\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.body, "vendor /b")
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["Play"])
    XCTAssertEqual(vendor.requests.map(\.host), ["one.test", "api.segment.io", "two.test:8080"])
    try await server.shutdown()
  }

  /// A later request that names no host of its own (origin form), another scheme or a host that
  /// is none is refused with `400` and a reason, never sent to the previous request's host.
  func testALaterRequestWithoutAHostOfItsOwnIsRefused() async throws {
    let (server, _) = try await startProxy(forward: true)
    for (later, reason) in [
      ("GET /origin-form HTTP/1.1\r\nHost: one.test\r\n\r\n", "names its host"),
      ("GET https://one.test/x HTTP/1.1\r\nHost: one.test\r\n\r\n", "CONNECT"),
      ("GET http://a..b/x HTTP/1.1\r\nHost: a..b\r\n\r\n", "empty label"),
      ("GET http://one.test:99999/x HTTP/1.1\r\nHost: one.test\r\n\r\n", "port"),
    ] {
      let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
      client.send(Self.page("one.test", "/first"))
      XCTAssertEqual(client.readResponse()?.status, 200)
      client.send(later)
      let reply = client.readResponse()
      XCTAssertEqual(reply?.status, 400, later)
      XCTAssertTrue(reply?.body.contains(reason) ?? false, "\(later): \(String(describing: reply))")
    }
    XCTAssertEqual(vendor.requests.map(\.target), Array(repeating: "/first", count: 4))
    try await server.shutdown()
  }
}
