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

  /// A chunked body declaring a chunk past the limit (`ffffffffffffffff`; one past 64 bits, which
  /// the decoder itself calls invalid; one byte over 20 MiB) gets the endpoint's 413 at once,
  /// before any of the chunk's bytes; a chunked body within it is read and recorded.
  func testAnImpossibleChunkSizeIs413AndAGoodChunkedBodyIsRead() async throws {
    let (server, collector) = try await startServer()
    func chunked(_ size: String) throws -> Int? {
      try status(
        server.port, path: "/2/httpapi", headers: ["Transfer-Encoding: chunked"], body: size + "\r\n")
    }
    let everything = try chunked("ffffffffffffffff")
    let overflowing = try chunked("1ffffffffffffffff")
    let justOver = try chunked(
      String(ListenConfiguration(port: 0).maximumBodyBytes + 1, radix: 16) + ";ext=1")
    let body = #"{"type":"track","userId":"u","event":"Chunked"}"#
    let half = body.utf8.count / 2
    let chunks =
      String(half, radix: 16) + "\r\n" + String(body.prefix(half)) + "\r\n"
      + String(body.utf8.count - half, radix: 16) + "\r\n" + String(body.dropFirst(half)) + "\r\n0\r\n\r\n"
    let good = try status(server.port, headers: ["Transfer-Encoding: chunked"], body: chunks)
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(everything, 413)
    XCTAssertEqual(overflowing, 413)
    XCTAssertEqual(justOver, 413)
    XCTAssertEqual(good, 200)
    XCTAssertEqual(records.map(\.name), ["Chunked"])
  }

  /// A chunk size between the endpoint's own limit (Amplitude's HTTP API: 1 MiB; GA4: 130 kB) and
  /// the server's 20 MiB gets that endpoint's answer at once, as a `Content-Length` past it does,
  /// instead of the connection waiting for a body it will refuse.
  func testAChunkPastTheEndpointsOwnLimitIsRefusedAtOnce() async throws {
    let (server, _) = try await startServer()
    func chunked(_ path: String, _ size: Int) throws -> Int? {
      try status(
        server.port, path: path, headers: ["Transfer-Encoding: chunked"],
        body: String(size, radix: 16) + "\r\n")
    }
    let amplitude = try chunked("/2/httpapi", 1024 * 1024 + 1)
    let amplitudeDeclared = try status(server.port, path: "/2/httpapi", headers: ["Content-Length: 1048577"])
    let ga4 = try chunked("/mp/collect?measurement_id=G-1&api_secret=s", 130 * 1000 + 1)
    let ga4Declared = try status(
      server.port, path: "/mp/collect?measurement_id=G-1&api_secret=s", headers: ["Content-Length: 130001"])
    try await server.shutdown()
    XCTAssertEqual(amplitude, 413)
    XCTAssertEqual(amplitudeDeclared, 413)
    XCTAssertNotNil(ga4)
    XCTAssertEqual(ga4, ga4Declared, "the same answer as for a declared length past GA4's limit")
  }

  func testTheChunkGuardFindsTheEndpointsLimitFromTheRequestLine() {
    XCTAssertEqual(ChunkSizeGuard.endpointLimit(requestLine: "POST /2/httpapi HTTP/1.1"), 1024 * 1024)
    XCTAssertEqual(ChunkSizeGuard.endpointLimit(requestLine: "POST /batch HTTP/1.1"), 20 * 1024 * 1024)
    XCTAssertEqual(
      ChunkSizeGuard.endpointLimit(requestLine: "POST http://api2.amplitude.com/2/httpapi?x=1 HTTP/1.1"),
      1024 * 1024, "absolute form, as through the proxy")
    XCTAssertNil(ChunkSizeGuard.endpointLimit(requestLine: "GET /tagscope/v1/summary HTTP/1.1"))
    XCTAssertNil(ChunkSizeGuard.endpointLimit(requestLine: "garbage"))
  }

  func testChunkSizeLinesAreReadAsTheDecoderReadsThem() {
    func size(_ text: String) -> ChunkSizeGuard.ChunkSize { ChunkSizeGuard.chunkSize(Array(text.utf8)) }
    XCTAssertEqual(size("1a\r\n"), .size(26))
    XCTAssertEqual(size("1A;name=value\r\n"), .size(26))
    XCTAssertEqual(size("0\r\n"), .size(0))
    XCTAssertEqual(size("ffffffffffffffff\r\n"), .size(UInt64.max))
    XCTAssertEqual(size("10000000000000000\r\n"), .overflow)
    XCTAssertEqual(size("zz\r\n"), .invalid)
    XCTAssertEqual(size("\r\n"), .invalid)
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
