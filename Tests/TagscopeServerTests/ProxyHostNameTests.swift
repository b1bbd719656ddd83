import Foundation
import NIOCore
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Every host the proxy takes — a `CONNECT` target, an absolute-form URI, a host option — is
/// checked by one rule (issue 42, item 8): what is no host gets a clear `400` (or a command-line
/// error) naming the problem, never a `500` or a DNS query.
final class ProxyHostNameTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostname-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  static let label63 = String(repeating: "a", count: 63)

  /// Names no host and what each refusal says (the host options of `tagscope proxy` use it).
  static let badNames: [(String, String)] = [
    (".", "no name"), ("..", "\"..\" has an empty label"), ("", "empty"), ("a..b", "empty label"),
    (".a", "empty label"),
    (String(repeating: "a", count: 230) + ".test", "230 characters long (at most 63)"),
    (label63 + "a.test", "64 characters long"),
    (Array(repeating: label63, count: 4).joined(separator: "."), "255 characters long (at most 253)"),
    ("-a.test", "starts or ends with -"), ("a-.test", "starts or ends with -"), ("a b.test", "U+20"),
    ("caf\u{E9}.test", "U+E9"), ("a/b", "\"/\""), ("host:443", "brackets"), ("::1", "brackets"),
  ]

  func testHostOptionsAreCheckedByOneRule() {
    for (name, reason) in Self.badNames {
      let problem = InterceptedHosts.hostNameProblem(name)
      XCTAssertTrue(problem?.description.contains(reason) ?? false, "\(name): \(String(describing: problem))")
      XCTAssertFalse(InterceptedHosts.isHostName(name), name)
    }
    let longest =
      Array(repeating: Self.label63, count: 3).joined(separator: ".") + "."
      + String(repeating: "b", count: 61)
    for name in [
      "posthog.acme.test", "posthog.acme.test.", "collector_1.acme.test", Self.label63 + ".test", longest,
    ] {
      XCTAssertNil(InterceptedHosts.hostNameProblem(name), name)
    }
    XCTAssertTrue(InterceptedHosts(extra: ["Collector.Acme.Test."]).contains("collector.acme.test"))
    XCTAssertTrue(InterceptedHosts().contains("api.segment.io."))
  }

  func testAuthoritiesNameTheirProblem() {
    for (text, reason) in [
      ("host:0", "port"), ("host:65536", "port"), ("host:+443", "port"), ("host:", "port"),
      ("host: 443", "port"),
      ("host:44 3", "port"), ("host", "needs a port"), ("user@host:443", "user information"),
      ("[::1:443", "closing ]"), ("[::1]x", "only :port"), ("[zz]:443", "not an IPv6 address"),
      ("[fe80::1%eth0]:443", "not an IPv6 address"), ("::1:443", "brackets"), (":443", "empty"),
    ] {
      guard case .failure(let problem) = Authority.parse(text, defaultPort: nil) else {
        XCTFail("\(text) accepted")
        continue
      }
      XCTAssertTrue(problem.description.contains(reason), "\(text): \(problem)")
    }
    XCTAssertEqual(Authority("API.Segment.IO.:443", defaultPort: nil)?.host, "api.segment.io")
    XCTAssertEqual(Authority("[::FFFF:7F00:1]:443", defaultPort: nil)?.host, "::ffff:7f00:1")
    XCTAssertEqual(Authority("192.0.2.7", defaultPort: 80)?.port, 80)
  }

  /// `--resolve`'s ADDRESS:PORT follows the same rule (a signed port or a bad name was taken).
  func testResolveAddressesFollowTheSameRule() {
    XCTAssertEqual(UpstreamAddress(parsing: "127.0.0.1:8443"), UpstreamAddress(host: "127.0.0.1", port: 8443))
    XCTAssertEqual(UpstreamAddress(parsing: "[::1]:443"), UpstreamAddress(host: "::1", port: 443))
    for bad in ["vendor.test:+80", "a..b:80", ":80", "vendor.test", "vendor.test:0", "::1:443", "[::1:443"] {
      XCTAssertNil(UpstreamAddress(parsing: bad), bad)
    }
  }

  /// A 230-character label under an intercepted suffix (251 characters in all) got `500` (no
  /// certificate could be minted); now every bad `CONNECT` target or absolute-form host gets `400` naming the problem,
  /// and the proxy goes on. A trailing dot names the same host: intercepted.
  func testBadTargetsGetAClearBadRequest() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"))
    let (server, _) = try await startServer(configuration)
    let port = server.proxyPort ?? 0
    let long = String(repeating: "a", count: 230)
    for (target, reason) in [
      ("\(long).google-analytics.com:443", "230 characters long"),
      ("\(long).dataplane.rudderstack.com:443", "230 characters long"),
      ("\(long).test:443", "230 characters long"), ("a..b:443", "empty label"), (".:443", "no name"),
      ("host:0", "port"), ("host:65536", "port"), ("::1:443", "brackets"),
      (Array(repeating: Self.label63, count: 4).joined(separator: ".") + ":443", "at most 253"),
    ] {
      let client = try RawClient(port: port, timeout: 20)
      client.send("CONNECT \(target) HTTP/1.1\r\n\r\n")
      let reply = client.readResponse()
      XCTAssertEqual(reply?.status, 400, target)
      XCTAssertTrue(reply?.body.contains(reason) ?? false, "\(target): \(String(describing: reply))")
    }
    let absolute = try RawClient(port: port, timeout: 20)
    absolute.send("GET http://\(long).test/x HTTP/1.1\r\nHost: x\r\n\r\n")
    let reply = absolute.readResponse()
    XCTAssertEqual(reply?.status, 400)
    XCTAssertTrue(reply?.body.contains("230 characters long") ?? false, String(describing: reply))
    let fqdn = try RawClient(port: port, timeout: 20)
    fqdn.send("CONNECT api.segment.io.:443 HTTP/1.1\r\n\r\n")
    XCTAssertEqual(fqdn.readResponse()?.status, 200)
    XCTAssertEqual(server.statistics.tunnels, 0, "a trailing dot is the SDK host, intercepted")
    try await server.shutdown()
  }
}
