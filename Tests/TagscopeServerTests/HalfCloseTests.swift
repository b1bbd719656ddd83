import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A client that ends its side after sending (`shutdown(SHUT_WR)`) still gets what it is owed,
/// then the server closes: found by `HTTPSocketFuzzTests`, where such a client got no reply at all
/// (the server closed at the end of input while the request's records were being stored).
final class HalfCloseTests: XCTestCase {
  private static let track = #"{"type":"track","userId":"u","event":"HalfClosed"}"#
  private static let request =
    "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    + "Content-Length: \(track.utf8.count)\r\n\r\n" + track

  func testPipelinedRequestsThenAHalfCloseAreEachAnsweredThenClosed() async throws {
    let (server, collector) = try await startServer()
    for pipelined in 1...3 {
      let socket = try FuzzSocket(port: server.port)
      socket.send(Array(String(repeating: Self.request, count: pipelined).utf8))
      socket.end(.halfClose)
      var received: [UInt8] = []
      XCTAssertEqual(socket.read(into: &received), .closed)
      XCTAssertEqual(HTTPResponseStream(received).statuses, Array(repeating: 200, count: pipelined))
    }
    collector.waitForRecords(6)
    try await server.shutdown()
  }

  /// A good request, then one whose body does not decompress, then the end of input: the first is
  /// answered 200 and the second 400 (before, the second's refusal closed the connection while the
  /// first reply was being written, and neither reached the client).
  func testARefusedRequestAfterAGoodOneDoesNotSwallowItsReply() async throws {
    let (server, _) = try await startServer()
    let bad =
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc"
    let socket = try FuzzSocket(port: server.port)
    socket.send(Array((Self.request + bad).utf8))
    socket.end(.halfClose)
    var received: [UInt8] = []
    XCTAssertEqual(socket.read(into: &received), .closed)
    try await server.shutdown()
    XCTAssertEqual(HTTPResponseStream(received).statuses, [200, 400])
  }

  func testANativeStreamHalfClosedGetsItsLastAcknowledgementThenCloses() async throws {
    let (server, collector) = try await startServer()
    let socket = try FuzzSocket(port: server.port)
    let lines = [
      #"{"format":"tagscope-recording","version":1,"app":"A","device":"d","run":"half","ack":true}"#,
      #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"event","name":"one"}"#,
      #"{"seq":2,"time":"2026-11-21T10:00:00.000Z","kind":"event","name":"two"}"#,
    ]
    socket.send(Array((lines.joined(separator: "\n") + "\n").utf8))
    socket.end(.halfClose)
    var received: [UInt8] = []
    XCTAssertEqual(socket.read(into: &received), .closed)
    XCTAssertEqual(NativeFuzzState.lines(received).last, Array(#"{"ack":2}"#.utf8))
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["one", "two"])
    try await server.shutdown()
  }

  func testAClientThatEndsWithoutSayingAnythingIsClosedAtOnce() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.firstBytesTimeout = .seconds(600)
    let (server, _) = try await startServer(configuration)
    let socket = try FuzzSocket(port: server.port)
    socket.end(.halfClose)
    var received: [UInt8] = []
    XCTAssertEqual(
      socket.read(into: &received), .closed, "closed at the end of input, not at the 600 s deadline")
    XCTAssertEqual(server.statistics.timeouts[.silent] ?? 0, 0)
    try await server.shutdown()
  }
}
