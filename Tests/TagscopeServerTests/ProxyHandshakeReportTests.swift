import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A device that does not trust the proxy's CA refuses every handshake, and its SDK retries (eight
/// times, for some): the session is told once per client and host, not once per retry.
final class ProxyHandshakeReportTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-handshake-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  /// Opens a tunnel to `authority` and sends bytes that are no TLS handshake; returns once the
  /// proxy closed the connection (after it reported the failure).
  private func failHandshake(port: Int, _ authority: String) throws {
    let client = try RawClient(port: port, timeout: 20)
    client.send("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.status, 200)
    client.send("GET / HTTP/1.1\r\nHost: \(authority)\r\n\r\n")
    XCTAssertTrue(client.waitForClose())
  }

  private func handshakeProblems(_ collector: Collector) -> [String] {
    collector.events.compactMap { event in
      if case .problem(_, let message) = event, message.contains("TLS handshake") { return message }
      return nil
    }
  }

  func testARefusedHandshakeIsReportedOncePerClientAndHost() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"))
    let (server, collector) = try await startServer(configuration)
    let port = server.proxyPort ?? 0
    for _ in 0..<8 { try failHandshake(port: port, "api.segment.io:443") }
    XCTAssertEqual(handshakeProblems(collector).count, 1, "\(handshakeProblems(collector))")
    // Another host of the same client is its own line.
    try failHandshake(port: port, "api2.amplitude.com:443")
    try failHandshake(port: port, "API.SEGMENT.IO:443")
    let problems = handshakeProblems(collector)
    XCTAssertEqual(problems.count, 2, "\(problems)")
    XCTAssertTrue(
      problems.allSatisfy { $0.contains("127.0.0.1") && $0.contains("tagscope proxy ca") }, "\(problems)")
    // In plain words: what went wrong, not BoringSSL's code and source file.
    for problem in problems {
      XCTAssertTrue(problem.contains("failed: the client sent plain HTTP, not TLS;"), problem)
      for word in ["BoringSSL", "OPENSSL", ".cc:", "handshakeFailed"] {
        XCTAssertFalse(problem.contains(word), problem)
      }
    }
    try await server.shutdown()
  }
}
