import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A declared length the endpoint cannot take is refused at once (413), not waited for; a body in
/// an encoding the server cannot decode is refused (415), not read as identity.
final class ImpossibleSizeTests: XCTestCase {
  private func status(_ port: Int, path: String = "/v1/track", headers: [String], body: String = "") throws
    -> Int?
  {
    let client = try RawClient(port: port, timeout: 60)
    client.send(
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body)
    return client.readResponse()?.status
  }

  func testAnOverflowingOrOversizedContentLengthIs413() async throws {
    let (server, _) = try await startServer()
    // Before: 408 after the 30 s request timeout, the body never coming.
    // Amplitude's endpoint answers a body too large with 413 (Segment's, as Segment does, with 400).
    let overflowing = try status(
      server.port, path: "/2/httpapi", headers: ["Content-Length: 9223372036854775808"])
    let oversized = try status(server.port, path: "/2/httpapi", headers: ["Content-Length: 1099511627776"])
    try await server.shutdown()
    XCTAssertEqual(overflowing, 413)
    XCTAssertEqual(oversized, 413)
  }

  func testAnUnknownContentEncodingIs415AndNothingIsRecorded() async throws {
    let (server, collector) = try await startServer()
    let body = #"{"type":"track","userId":"u","event":"Brotli"}"#
    let brotli = try status(
      server.port, headers: ["Content-Encoding: br", "Content-Length: \(body.utf8.count)"], body: body)
    let plain = try status(server.port, headers: ["Content-Length: \(body.utf8.count)"], body: body)
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(brotli, 415)
    XCTAssertEqual(plain, 200)
    XCTAssertEqual(records.map(\.name), ["Brotli"])
  }
}
