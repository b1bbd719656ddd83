import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The leaf cache through `tagscope proxy` (issue 42, item 5): a client verifying the real host's
/// name against the proxy's CA, OpenSSL's `s_client` through the proxy's `CONNECT`, succeeds even
/// when an earlier version poisoned the cache.
final class CertificateCacheProxyTests: XCTestCase {
  private let real = "www.google-analytics.com"

  func testACachePoisonedByAnEarlierVersionIsMintedAgainAndVerifies() async throws {
    let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
    guard FileManager.default.isExecutableFile(atPath: openssl.path) else { throw XCTSkip("no openssl") }
    let temporary = try TemporaryDirectory()
    let folder = temporary.file("ca")
    // What `CONNECT .www.google-analytics.com:443` left before: the leading-dot name's leaf in the
    // real host's file (the name's dots were trimmed), served to every later client of the host.
    let authority = try CertificateAuthority(directory: folder)
    try authority.mint(hosts: [".\(real)"]).certificatePEM.write(
      to: folder.appendingPathComponent("hosts/\(real).pem"), atomically: false, encoding: .utf8)

    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: folder, resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: 1)])
    let (server, _) = try await startServer(configuration)
    let client = Process()
    client.executableURL = openssl
    client.arguments = [
      "s_client", "-proxy", "127.0.0.1:\(server.proxyPort ?? 0)", "-connect", "\(real):443", "-servername",
      real,
      "-CAfile", authority.certificateFile.path, "-verify_hostname", real, "-verify_return_error",
    ]
    let input = Pipe()
    client.standardInput = input
    try input.fileHandleForWriting.close()
    let (status, output) = try runToEnd(client, hangGuard: 120)
    try await server.shutdown()

    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains("Verify return code: 0 (ok)"), output)
  }
}
