import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A connection closed while the client's bytes are still unread lingers (``LingeringClose``): the
/// reply is sent, the write side shut, and the rest read and discarded until the client ends its
/// side, so the kernel does not reset the connection and lose the reply. Found by
/// `HTTPSocketFuzzTests` (seed 2053463049, input 91: a corrupt gzip body, a request pipelined
/// behind it, a half-close), whose reply was counted but never arrived.
final class LingeringCloseTests: XCTestCase {
  private static let corrupt =
    "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    + "Content-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc"

  private static func track(_ name: String) -> String {
    let body = #"{"type":"track","userId":"u","event":"\#(name)"}"#
    return "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  /// A refusal that closes the connection with requests pipelined behind it (many, so they are
  /// still unread when it closes): the refusal arrives, then the end, never a reset.
  func testARefusalWithRequestsPipelinedBehindArrivesBeforeTheClose() async throws {
    let (server, _) = try await startServer()
    let behind = String(repeating: Self.track("behind"), count: 2_000)
    let socket = try FuzzSocket(port: server.port)
    socket.send(Array((Self.corrupt + behind).utf8))
    socket.end(.halfClose)
    var received: [UInt8] = []
    XCTAssertEqual(socket.read(into: &received), .closed)
    XCTAssertEqual(HTTPResponseStream(received).statuses, [400])
    XCTAssertTrue(eventually { server.statistics.openConnections == 0 }, server.statistics.summary)
    XCTAssertEqual(server.statistics.httpRequests, 1, server.statistics.summary)
    XCTAssertEqual(server.statistics.accepted, 0, "nothing behind the refusal taken: its reply would be lost")
    try await server.shutdown()
  }

  /// A client that reads the refusal, then keeps sending without ever ending its side, is closed
  /// once it sent more than the lingering budget: its writes then fail.
  func testAClientThatKeepsSendingIsClosedPastTheBudget() async throws {
    let (server, _) = try await startServer()
    let socket = try FuzzSocket(port: server.port)
    socket.send(Array(Self.corrupt.utf8))
    var received: [UInt8] = []
    _ = socket.read(into: &received) { HTTPResponseStream($0).statuses.count >= 1 }
    XCTAssertEqual(HTTPResponseStream(received).statuses, [400])
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
    var sent = 0
    while sent <= 32 * LingeringClose.budget, socket.send(chunk) { sent += chunk.count }
    XCTAssertLessThanOrEqual(sent, 32 * LingeringClose.budget, "closed (sending fails) past the budget")
    XCTAssertTrue(eventually { server.statistics.openConnections == 0 }, server.statistics.summary)
    try await server.shutdown()
  }

  /// A client that reads the refusal, then neither sends nor ends its side, is closed once the
  /// lingering has waited ``LingeringClose/timeout``: the connection does not stay open for it.
  func testAClientThatStaysSilentIsClosedAfterTheLingeringTimeout() async throws {
    let (server, _) = try await startServer()
    let socket = try FuzzSocket(port: server.port)
    socket.send(Array((Self.corrupt + Self.track("behind")).utf8))
    var received: [UInt8] = []
    XCTAssertEqual(socket.read(into: &received), .closed, "the write side shut once the refusal is sent")
    XCTAssertEqual(HTTPResponseStream(received).statuses, [400])
    XCTAssertTrue(eventually { server.statistics.openConnections == 0 }, server.statistics.summary)
    XCTAssertEqual(server.statistics.accepted, 0, server.statistics.summary)
    try await server.shutdown()
  }
}
