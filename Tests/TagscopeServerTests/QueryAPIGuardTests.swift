import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The query API's guard reads `Host` values as browsers send them; the SDK endpoints still answer
/// browser SDKs, whose requests carry an `Origin`.
final class QueryAPIGuardTests: XCTestCase {
  func testSDKEndpointsStillAnswerBrowserSDKs() async throws {
    let (server, collector) = try await startServer()
    let body = #"{"type":"track","userId":"u","event":"FromBrowser"}"#
    let reply = try RawClient.exchange(
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
