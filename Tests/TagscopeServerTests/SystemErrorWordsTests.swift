import Foundation
import NIOCore
import NIOSSL
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A failed system call is said in plain words after what the user gave: the proxy's connect
/// failures (a tunnel's 502, a forwarded request's problem line), the CA folder, BoringSSL's codes.
final class SystemErrorWordsTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "error-words-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  private let systemWords = [
    "errno", "descriptor", "connect(", "IOError", "NIOConnectionError", "Error Domain",
  ]

  private func assertPlain(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
    for word in systemWords { XCTAssertFalse(text.contains(word), text, file: file, line: line) }
  }

  func testReasonsAreWords() {
    XCTAssertEqual(
      SystemErrorWords.reason(IOError(errnoCode: ECONNREFUSED, reason: "connect")), "connection refused")
    XCTAssertEqual(
      SystemErrorWords.reason(ChannelError.connectTimeout(.seconds(10))),
      "no answer before the connect timeout")
    let posix = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT))
    XCTAssertEqual(
      SystemErrorWords.reason(
        NSError(domain: NSCocoaErrorDomain, code: 4, userInfo: [NSUnderlyingErrorKey: posix])),
      "no such file or directory")
    XCTAssertEqual(
      SystemErrorWords.tlsWords(
        "[Error: 268435612 error:1000009c:SSL routines:OPENSSL_internal:HTTP_REQUEST at s3.cc:485]"),
      "the client sent plain HTTP, not TLS")
    XCTAssertEqual(
      SystemErrorWords.tlsWords(
        "error:10000418:SSL routines:OPENSSL_internal:TLSV1_ALERT_UNKNOWN_CA at x.cc:1"),
      "the client refused the proxy's certificate")
    XCTAssertEqual(
      SystemErrorWords.tlsWords("OPENSSL_internal:NO_SHARED_CIPHER at a.cc:2"),
      "TLS failed (no shared cipher)")
  }

  func testATunnelToAClosedPortSaysConnectionRefused() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["closed.test": UpstreamAddress(host: "127.0.0.1", port: closedPort)])
    let (server, _) = try await startServer(configuration)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    client.send("CONNECT closed.test:443 HTTP/1.1\r\nHost: closed.test:443\r\n\r\n")
    let response = client.readResponse()
    XCTAssertEqual(response?.status, 502)
    XCTAssertTrue(
      response?.body.contains("cannot reach closed.test:443: connection refused") ?? false,
      "\(response?.body ?? "")")
    assertPlain(response?.body ?? "")
    try await server.shutdown()
  }

  func testAForwardedRequestToAClosedPortSaysConnectionRefused() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["api.segment.io": UpstreamAddress(host: "127.0.0.1", port: closedPort)])
    let (server, collector) = try await startServer(configuration)
    let body = #"{"batch":[{"type":"track","event":"play","messageId":"m-1","anonymousId":"a"}]}"#
    let response = try httpRequest(
      port: server.proxyPort ?? 0, path: "http://api.segment.io/v1/batch", headers: ["Host: api.segment.io"],
      body: body)
    XCTAssertEqual(response?.status, 502, response?.body ?? "")
    let problem = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event, message.contains("unreachable") { return message }
      return nil
    }.first
    XCTAssertTrue(
      problem?.contains("api.segment.io:80 unreachable: connection refused") ?? false, problem ?? "none")
    assertPlain(problem ?? "")
    try await server.shutdown()
  }
}
