import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A response to `HEAD` carries headers alone (RFC 9110 §9.3.2), from every writer of responses:
/// listen's SDK endpoints and query API, the proxy's own pages, its plain-HTTP SDK replies and its
/// upstream failures. A body there is read by the client as the start of the next response on a
/// kept-alive connection (health checks and `curl -I` send `HEAD`).
final class HeadRequestTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("head-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  func testListenAnswersPipelinedHeadRequestsWithHeadersAlone() async throws {
    let (server, _) = try await startServer()
    let client = try RawClient(port: server.port, timeout: 20)
    client.send(
      "HEAD /v1/track HTTP/1.1\r\nHost: x\r\n\r\n"
        + "HEAD /tagscope/v1/summary HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        + "GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let responses = Self.responses(client.readAll())
    try await server.shutdown()
    XCTAssertEqual(responses.map(\.status), [405, 405, 404])
    XCTAssertEqual(responses.map(\.body), ["", "", "Not found"])
    XCTAssertNotEqual(responses.first?.contentLength, 0, "the length of what GET would have sent")
  }

  func testTheProxysOwnPagesAndRepliesAnswerHeadWithHeadersAlone() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: false, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["closed.test": UpstreamAddress(host: "127.0.0.1", port: 1)])
    let (server, _) = try await startServer(configuration)
    let port = server.proxyPort ?? 0
    var bodies: [String: [Response]] = [:]
    for (name, request) in [
      ("ca", "HEAD /ca.pem HTTP/1.1\r\nHost: x\r\n\r\n"),
      (
        "sdk",
        "HEAD http://api.segment.io/v1/track HTTP/1.1\r\nHost: api.segment.io\r\nConnection: close\r\n\r\n"
      ),
    ] {
      let client = try RawClient(port: port, timeout: 20)
      client.send(request)
      bodies[name] = Self.responses(client.readAll())
    }
    try await server.shutdown()
    XCTAssertEqual(bodies["ca"]?.map(\.status), [200])
    XCTAssertEqual(bodies["ca"]?.map(\.body), [""])
    XCTAssertGreaterThan(bodies["ca"]?.first?.contentLength ?? 0, 0)
    XCTAssertEqual(bodies["sdk"]?.map(\.body), [""])
  }

  func testAnUpstreamFailureAnswersHeadWithHeadersAlone() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["closed.test": UpstreamAddress(host: "127.0.0.1", port: 1)])
    let (server, _) = try await startServer(configuration)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    client.send("HEAD http://closed.test/health HTTP/1.1\r\nHost: closed.test\r\n\r\n")
    let responses = Self.responses(client.readAll())
    try await server.shutdown()
    XCTAssertEqual(responses.map(\.status), [502])
    XCTAssertEqual(responses.map(\.body), [""])
  }

  /// A vendor that answers `HEAD` chunked (no body, as `HEAD` has none): the proxy relays the
  /// answer without the chunked framing, whose empty last chunk the client would read as the
  /// start of the next response.
  func testAVendorsChunkedAnswerToHeadIsRelayedWithoutABody() async throws {
    let vendor = try await EchoServer.start(
      answer: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Vendor: yes\r\n\r\n")
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["vendor.test": UpstreamAddress(host: "127.0.0.1", port: vendor.port)])
    let (server, _) = try await startServer(configuration)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    client.send("HEAD http://vendor.test/health HTTP/1.1\r\nHost: vendor.test\r\nConnection: close\r\n\r\n")
    let bytes = client.readAll()
    try await server.shutdown()
    try await vendor.shutdown()
    let text = String(decoding: bytes, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("HTTP/1.1 200"), text)
    XCTAssertTrue(text.contains("X-Vendor: yes"), text)
    XCTAssertTrue(text.hasSuffix("\r\n\r\n"), "nothing after the head: \(text.debugDescription)")
    XCTAssertEqual(text.components(separatedBy: "\r\n\r\n").count, 2, text.debugDescription)
    XCTAssertFalse(text.lowercased().contains("transfer-encoding"), text)
  }

  /// One response read from the wire to a `HEAD` request or not.
  struct Response {
    var status: Int
    var contentLength: Int
    var body: String
  }

  /// The responses in `bytes`: after each head, bytes up to the next status line are its body, so
  /// a response to `HEAD` (a length and no body) reads as an empty body.
  private static func responses(_ bytes: [UInt8]) -> [Response] {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { part in
      let pieces = part.components(separatedBy: "\r\n\r\n")
      let head = pieces[0].components(separatedBy: "\r\n")
      let length = head.first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
      return Response(
        status: Int(head[0].prefix(3)) ?? -1, contentLength: length ?? -1,
        body: pieces.dropFirst().joined(separator: "\r\n\r\n"))
    }
  }
}
