import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope listen` serves `POST /a` as Firebase's upload host: gzip with or without
/// `Content-Encoding`, answered `204`, `Content-Type: image/gif`, no body; a bad body refused
/// alone with its place, the next request on the same server recorded.
final class FirebaseUploadListenTests: XCTestCase {
  func testListenRecordsUploadsWithAndWithoutContentEncoding() async throws {
    let (server, collector) = try await startServer()
    let gzipped = try FirebaseUploadFixtureTests.fixture("android-2024.pb.gz")
    let form = "application/x-www-form-urlencoded"
    let withHeader = try XCTUnwrap(
      try httpRequest(
        port: server.port, path: "/a", contentType: form, headers: ["Content-Encoding: gzip"], body: gzipped))
    XCTAssertEqual(withHeader.status, 204, withHeader.body)
    XCTAssertEqual(withHeader.body, "")
    let exchange = try RawClient.exchange(
      server.port,
      "POST /a HTTP/1.1\r\nHost: app-measurement.com\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    XCTAssertEqual(exchange.status, 204)
    XCTAssertEqual(exchange.headers["content-type"], "image/gif")
    let bad = try XCTUnwrap(
      try httpRequest(port: server.port, path: "/a", contentType: form, body: [0x0a, 0x20, 1]))
    XCTAssertEqual(bad.status, 400)
    XCTAssertTrue(bad.body.contains("not protobuf at byte 0"), bad.body)
    let withoutHeader = try XCTUnwrap(
      try httpRequest(port: server.port, path: "/a", contentType: form, body: gzipped))
    XCTAssertEqual(withoutHeader.status, 204, withoutHeader.body)
    let records = collector.waitForRecords(10)
    try await server.shutdown()
    XCTAssertEqual(records.count, 10)
    XCTAssertEqual(records.first?.name, "first_open")
    XCTAssertEqual(records.first?.outputs.first?.calls.first?.method, "automaticEvent")
    XCTAssertEqual(server.statistics.rejected[.invalidPayload], 1)
  }
}
