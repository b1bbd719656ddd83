import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A client that sends `Expect: 100-continue` holds its body back until `100 Continue` or a final
/// status (curl does so for large bodies). A request answered from its head (an unknown path, a
/// declared length past the endpoint's limit, a refused query API call), by `listen` or by the
/// proxy, gets that final status at once and a close, never `100 Continue` nor a wait for the body;
/// one to an SDK endpoint gets `100 Continue`, then its answer once the body came.
final class ExpectContinueTests: XCTestCase {
  func testARequestAnsweredWithoutItsBodyIsAnsweredBeforeTheBody() async throws {
    let (server, _) = try await startServer()
    let requests = [
      (
        "POST /nowhere HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n", 404
      ),
      (
        "POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
          + "Content-Length: 99999999\r\n\r\n", 400
      ),
      (
        "POST /tagscope/v1/reset HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: https://evil.example\r\n"
          + "Expect: 100-continue\r\nContent-Length: 10\r\n\r\n", 403
      ),
    ]
    for (request, status) in requests {
      let client = try RawClient(port: server.port, timeout: 60)
      client.send(request)
      XCTAssertEqual(client.readResponse()?.status, status, request)
      XCTAssertTrue(
        client.waitForClose(), "closed after the answer: the body it may still send is not a request")
      XCTAssertEqual(server.statistics.totalTimeouts, 0, "closed at once, not by the request timeout")
    }
    try await server.shutdown()
  }

  func testARequestToAnEndpointGetsContinueThenItsAnswer() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    let body = #"{"type":"track","userId":"u","event":"continued"}"#
    client.send(
      "POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.status, 100)
    client.send(body)
    XCTAssertEqual(client.readResponse()?.status, 200)
    collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(collector.records.map(\.name), ["continued"])
  }

  func testTheProxyRefusesFromTheHeadBeforeTheBody() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "expect-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: false, authorityDirectory: directory.appendingPathComponent("ca"))
    let (server, _) = try await startServer(configuration)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 60)
    client.send(
      "POST http://api.segment.io/v1/batch HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
        + "Expect: 100-continue\r\nContent-Length: 99999999\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.status, 400)
    XCTAssertTrue(client.waitForClose())
    XCTAssertEqual(server.statistics.totalTimeouts, 0, "closed at once, not by the request timeout")
    try await server.shutdown()
  }

  /// With `--token`, a query API request without it is refused from its head, whatever its method
  /// or route: a client waiting for `100 Continue` gets `401` at once and a close (it got `100`,
  /// then waited for the request timeout's `408`), and `HEAD` or a wrong method gets `401`, not a
  /// `405` telling which methods the route takes. A preflight carries no credentials: answered.
  func testAQueryAPICallWithoutTheTokenIsRefusedFromItsHead() async throws {
    let (server, _) = try await startServer(ListenConfiguration(port: 0, token: "t0ken"))
    let host = "Host: 127.0.0.1:\(server.port)\r\n"
    let waiting = try RawClient(port: server.port, timeout: 60)
    waiting.send(
      "POST /tagscope/v1/reset HTTP/1.1\r\n\(host)Content-Type: application/json\r\n"
        + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    XCTAssertEqual(waiting.readResponse()?.status, 401)
    XCTAssertTrue(waiting.waitForClose())
    let head = try RawClient(port: server.port, timeout: 60)
    head.send("HEAD /tagscope/v1/summary HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
    XCTAssertTrue(String(decoding: head.readAll(), as: UTF8.self).hasPrefix("HTTP/1.1 401 "))
    for request in [
      "DELETE /tagscope/v1/summary HTTP/1.1\r\n\(host)\r\n",
      "GET /tagscope/v1/no-such-route HTTP/1.1\r\n\(host)\r\n",
      "GET /tagscope/v1/summary?token=wrong HTTP/1.1\r\n\(host)\r\n",
    ] {
      let client = try RawClient(port: server.port, timeout: 60)
      client.send(request)
      XCTAssertEqual(client.readResponse()?.status, 401, request)
    }
    let preflight = try RawClient(port: server.port, timeout: 60)
    preflight.send("OPTIONS /tagscope/v1/summary HTTP/1.1\r\n\(host)\r\n")
    XCTAssertEqual(preflight.readResponse()?.status, 204)
    let allowed = try RawClient(port: server.port, timeout: 60)
    allowed.send("GET /tagscope/v1/openapi.json HTTP/1.1\r\n\(host)Authorization: Bearer t0ken\r\n\r\n")
    XCTAssertEqual(allowed.readResponse()?.status, 200)
    XCTAssertEqual(server.statistics.totalTimeouts, 0)
    try await server.shutdown()
  }

  /// A query API call is answered at its end, as its route says: a client waiting for
  /// `100 Continue` gets it, sends its body, then gets the answer (here `503`: no query API).
  func testAQueryAPICallGetsContinueThenItsAnswer() async throws {
    let (server, _) = try await startServer()
    let client = try RawClient(port: server.port, timeout: 60)
    client.send(
      "POST /tagscope/v1/reset HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n"
        + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.status, 100)
    client.send("{}")
    XCTAssertEqual(client.readResponse()?.status, 503)
    XCTAssertEqual(server.statistics.totalTimeouts, 0)
    try await server.shutdown()
  }
}
