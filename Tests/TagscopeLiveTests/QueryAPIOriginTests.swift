import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The query API answers no web page: no CORS header unless `--cors-origin` names the origin, a
/// foreign `Origin` or `Host` refused (403).
final class QueryAPIOriginTests: XCTestCase {
  private func get(_ path: String, host: String, extra: [String] = [], method: String = "GET") -> String {
    "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
      + extra.map { $0 + "\r\n" }.joined() + "Content-Length: 0\r\n\r\n"
  }

  func testWithoutCORSOriginNoHeaderIsSentAndAnyOriginIsRefused() async throws {
    let harness = try await QueryAPIHarness.start()
    let port = harness.server.port
    let plain = try RawClient.exchange(port, get("/tagscope/v1/summary", host: "127.0.0.1:\(port)"))
    let fromPage = try RawClient.exchange(
      port, get("/tagscope/v1/summary", host: "127.0.0.1:\(port)", extra: ["Origin: https://evil.example"]))
    let nullOrigin = try RawClient.exchange(
      port, get("/tagscope/v1/records", host: "localhost:\(port)", extra: ["Origin: null"]))
    let preflight = try RawClient.exchange(
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
    let rebound = try RawClient.exchange(port, get("/tagscope/v1/summary", host: "attacker.example:\(port)"))
    let otherPort = try RawClient.exchange(
      port, get("/tagscope/v1/summary", host: "127.0.0.1:\(port == 1 ? 2 : 1)"))
    var allowed: [Int] = []
    for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "LOCALHOST", "127.0.0.1"] {
      allowed.append(try RawClient.exchange(port, get("/tagscope/v1/summary", host: host)).status)
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
    let named = try RawClient.exchange(
      port, get("/tagscope/v1/summary", host: host, extra: ["Origin: \(origin)"]))
    let preflight = try RawClient.exchange(
      port,
      get(
        "/tagscope/v1/reset", host: host,
        extra: ["Origin: \(origin)", "Access-Control-Request-Method: POST"],
        method: "OPTIONS"))
    let other = try RawClient.exchange(
      port, get("/tagscope/v1/summary", host: host, extra: ["Origin: http://localhost:3001"]))
    let resetByGET = try RawClient.exchange(
      port, get("/tagscope/v1/reset", host: host, extra: ["Origin: \(origin)"]))
    try await harness.stop()
    XCTAssertEqual(named.status, 200)
    XCTAssertEqual(named.headers["access-control-allow-origin"], origin)
    XCTAssertEqual(preflight.status, 204)
    XCTAssertEqual(preflight.headers["access-control-allow-origin"], origin)
    XCTAssertEqual(other.status, 403)
    XCTAssertNil(other.headers["access-control-allow-origin"])
    XCTAssertEqual(resetByGET.status, 405)
  }
}
