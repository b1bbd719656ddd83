import Foundation
import XCTest

@testable import TagscopeServer

/// The query API answers no web page: no CORS header unless `--cors-origin` names the origin, a
/// foreign `Origin` or `Host` refused (403); the SDK endpoints still answer browser SDKs.
final class QueryAPIOriginTests: XCTestCase {
  /// The status line and headers (lower-cased names) of the reply to `request` (sent with
  /// `Connection: close`).
  private func exchange(_ port: Int, _ request: String) throws -> (status: Int, headers: [String: String]) {
    let client = try RawClient(port: port, timeout: 20)
    client.send(request)
    let text = String(decoding: client.readAll(), as: UTF8.self)
    let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
    let lines = head.components(separatedBy: "\r\n")
    let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
        in: .whitespaces)
    }
    return (status, headers)
  }

  private func get(_ path: String, host: String, extra: [String] = [], method: String = "GET") -> String {
    "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
      + extra.map { $0 + "\r\n" }.joined() + "Content-Length: 0\r\n\r\n"
  }

  func testWithoutCORSOriginNoHeaderIsSentAndAnyOriginIsRefused() async throws {
    let harness = try await QueryAPIHarness.start()
    let port = harness.server.port
    let plain = try exchange(port, get("/tagscope/v1/summary", host: "127.0.0.1:\(port)"))
    let fromPage = try exchange(
      port, get("/tagscope/v1/summary", host: "127.0.0.1:\(port)", extra: ["Origin: https://evil.example"]))
    let nullOrigin = try exchange(
      port, get("/tagscope/v1/records", host: "localhost:\(port)", extra: ["Origin: null"]))
    let preflight = try exchange(
      port,
      get(
        "/tagscope/v1/reset", host: "127.0.0.1:\(port)",
        extra: ["Origin: https://evil.example", "Access-Control-Request-Method: POST"], method: "OPTIONS"))
    try await harness.stop()
    XCTAssertEqual(plain.status, 200)
    XCTAssertNil(plain.headers["access-control-allow-origin"])
    XCTAssertEqual(fromPage.status, 403)
    XCTAssertNil(fromPage.headers["access-control-allow-origin"])
    XCTAssertEqual(nullOrigin.status, 403)
    XCTAssertEqual(preflight.status, 403)
    XCTAssertNil(preflight.headers["access-control-allow-origin"])
  }

  func testAHostThatIsNotThisServerIsRefused() async throws {
    let harness = try await QueryAPIHarness.start()
    let port = harness.server.port
    let rebound = try exchange(port, get("/tagscope/v1/summary", host: "attacker.example:\(port)"))
    let otherPort = try exchange(port, get("/tagscope/v1/summary", host: "127.0.0.1:\(port == 1 ? 2 : 1)"))
    var allowed: [Int] = []
    for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "LOCALHOST", "127.0.0.1"] {
      allowed.append(try exchange(port, get("/tagscope/v1/summary", host: host)).status)
    }
    try await harness.stop()
    XCTAssertEqual(rebound.status, 403)
    XCTAssertEqual(otherPort.status, 403)
    XCTAssertEqual(allowed, [200, 200, 200, 200, 200])
  }

  func testTheCORSOriginAloneIsAnsweredWithItsHeader() async throws {
    let origin = "http://localhost:3000"
    let harness = try await QueryAPIHarness.start(corsOrigin: origin)
    let port = harness.server.port
    let host = "127.0.0.1:\(port)"
    let named = try exchange(port, get("/tagscope/v1/summary", host: host, extra: ["Origin: \(origin)"]))
    let preflight = try exchange(
      port,
      get(
        "/tagscope/v1/reset", host: host,
        extra: ["Origin: \(origin)", "Access-Control-Request-Method: POST"],
        method: "OPTIONS"))
    let other = try exchange(
      port, get("/tagscope/v1/summary", host: host, extra: ["Origin: http://localhost:3001"]))
    let resetByGET = try exchange(port, get("/tagscope/v1/reset", host: host, extra: ["Origin: \(origin)"]))
    try await harness.stop()
    XCTAssertEqual(named.status, 200)
    XCTAssertEqual(named.headers["access-control-allow-origin"], origin)
    XCTAssertEqual(preflight.status, 204)
    XCTAssertEqual(preflight.headers["access-control-allow-origin"], origin)
    XCTAssertEqual(other.status, 403)
    XCTAssertNil(other.headers["access-control-allow-origin"])
    XCTAssertEqual(resetByGET.status, 405)
  }

  func testSDKEndpointsStillAnswerBrowserSDKs() async throws {
    let (server, collector) = try await startServer()
    let body = #"{"type":"track","userId":"u","event":"FromBrowser"}"#
    let reply = try exchange(
      server.port,
      "POST /v1/track HTTP/1.1\r\nHost: api.segment.example\r\nOrigin: https://shop.example\r\n"
        + "Connection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        + body)
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(reply.status, 200)
    XCTAssertEqual(reply.headers["access-control-allow-origin"], "*")
    XCTAssertEqual(records.first?.name, "FromBrowser")
  }

  func testGuardSplitsHostValues() {
    XCTAssertEqual(QueryAPIGuard.split("[::1]:7531")?.name, "[::1]")
    XCTAssertEqual(QueryAPIGuard.split("[::1]:7531")?.port, 7531)
    XCTAssertEqual(QueryAPIGuard.split("localhost.")?.name, "localhost")
    XCTAssertNil(QueryAPIGuard.split("localhost:http"))
    XCTAssertNil(QueryAPIGuard.split(":7531"))
    let anywhere = QueryAPIGuard(configuration: ListenConfiguration(host: "0.0.0.0", port: 0))
    XCTAssertTrue(anywhere.allows(host: "192.168.1.20:7531", port: 7531))
    XCTAssertFalse(anywhere.allows(host: "rebind.example:7531", port: 7531))
    let loopback = QueryAPIGuard(configuration: ListenConfiguration(port: 0))
    XCTAssertFalse(loopback.allows(host: "192.168.1.20:7531", port: 7531))
  }
}
