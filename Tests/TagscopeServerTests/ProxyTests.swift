import Foundation
import NIOCore
import NIOPosix
import TagscopeTestSupport
import X509
import XCTest

@testable import TagscopeServer

/// `tagscope proxy` against bad clients and bad upstreams, with raw sockets: a handshake never
/// finished, a closed port, 500 tunnels at once; and its CA, hosts and request targets.
final class ProxyTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  private func startProxy(resolve: [String: UpstreamAddress] = [:]) async throws -> (ListenServer, Collector)
  {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"), resolve: resolve,
      handshakeTimeout: .seconds(1))
    return try await startServer(configuration)
  }

  /// Sends `CONNECT authority` and returns the client with the proxy's status.
  private func connect(_ port: Int, _ authority: String) throws -> (RawClient, Int?) {
    let client = try RawClient(port: port, timeout: 20)
    client.send("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n\r\n")
    return (client, client.readResponse()?.status)
  }

  // MARK: The certificate authority

  func testAuthorityIsOwnerOnlyReloadedAndMintsValidLeaves() throws {
    let folder = directory.appendingPathComponent("ca")
    let authority = try CertificateAuthority(directory: folder)
    let attributes = try FileManager.default.attributesOfItem(
      atPath: folder.appendingPathComponent("ca-key.pem").path)
    XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path)
    XCTAssertEqual((folderAttributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)

    let leaf = try authority.leaf(for: "API.Segment.io")
    let certificate = try Certificate(pemEncoded: leaf.certificatePEM)
    XCTAssertEqual(certificate.issuer, authority.certificate.subject)
    XCTAssertTrue(authority.certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
    let names = try XCTUnwrap(certificate.extensions.subjectAlternativeNames)
    XCTAssertEqual(Array(names), [.dnsName("api.segment.io")])
    XCTAssertEqual(try certificate.extensions.extendedKeyUsage.map(Array.init), [.serverAuth])
    XCTAssertLessThanOrEqual(
      certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore), 398 * 86_400)
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("hosts/api.segment.io.pem").path))

    // A second start (another process) finds the same root and the cached leaf.
    let again = try CertificateAuthority(directory: folder)
    XCTAssertEqual(again.certificatePEM, authority.certificatePEM)
    XCTAssertEqual(try again.leaf(for: "api.segment.io").certificatePEM, leaf.certificatePEM)
    // Nothing outside the directory.
    let written = try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted()
    XCTAssertTrue(written.allSatisfy { $0.hasPrefix("ca") }, "\(written)")
  }

  /// The guide names the files and the exact commands; the Android name is OpenSSL's own.
  func testTrustGuideNamesTheCertificateAndAndroidHash() throws {
    let authority = try CertificateAuthority(directory: directory.appendingPathComponent("ca"))
    let text = ProxyTrustGuide.text(authority: authority, port: 8888)
    for expected in [
      authority.certificateFile.path, "xcrun simctl keychain booted add-root-cert",
      "Certificate Trust Settings", "network_security_config", "settings put global http_proxy 10.0.2.2:8888",
      "/system/etc/security/cacerts/\(authority.androidSystemFileName)",
    ] {
      XCTAssertTrue(text.contains(expected), expected)
    }
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    guard FileManager.default.isExecutableFile(atPath: openssl.executableURL!.path) else { return }
    openssl.arguments = ["x509", "-subject_hash_old", "-noout", "-in", authority.certificateFile.path]
    let (status, hash) = try runToEnd(openssl)
    XCTAssertEqual(status, 0, hash)
    XCTAssertEqual(
      hash.trimmingCharacters(in: .whitespacesAndNewlines) + ".0", authority.androidSystemFileName)
  }

  // MARK: Hosts and targets

  func testInterceptedHostsMatchExactlyOrBySuffix() {
    let hosts = InterceptedHosts(extra: ["Collector.Acme.test"])
    for host in [
      "API.segment.io", "acme.dataplane.rudderstack.com", "collector.acme.test",
      "region1.google-analytics.com",
    ] {
      XCTAssertTrue(hosts.contains(host), host)
    }
    for host in [
      "dataplane.rudderstack.com.evil.test", "segment.io", "example.com", "api.segment.io.evil.test",
    ] {
      XCTAssertFalse(hosts.contains(host), host)
    }
    XCTAssertTrue(InterceptedHosts.isHostName("posthog.acme.test"))
    for text in ["posthog.acme.test:443", "a b", "user@host", ""] {
      XCTAssertFalse(InterceptedHosts.isHostName(text), text)
    }
  }

  func testRequestTargetsAndAuthorities() {
    XCTAssertEqual(
      Authority("api.segment.io:443", defaultPort: nil), Authority("API.SEGMENT.IO:443", defaultPort: nil))
    XCTAssertEqual(Authority("[::1]:8080", defaultPort: nil)?.host, "::1")
    for bad in ["api.segment.io", "host:0", "host:70000", "user@host:443", "ho st:443", "[::1:443"] {
      XCTAssertNil(Authority(bad, defaultPort: nil), bad)
    }
    let absolute = RequestTarget("http://Example.test:8080/v1/batch?x=1")
    XCTAssertEqual(absolute.host, "example.test")
    XCTAssertEqual(absolute.port, 8080)
    XCTAssertEqual(absolute.originForm, "/v1/batch?x=1")
    XCTAssertEqual(absolute.path, "/v1/batch")
    XCTAssertEqual(RequestTarget("http://example.test").originForm, "/")
    XCTAssertEqual(RequestTarget("https://example.test?q").originForm, "/?q")
    XCTAssertNil(RequestTarget("/track?data=x").scheme)
  }

  // MARK: Plain HTTP, tokens, a full session

  /// Plain HTTP in absolute form to an SDK host, with `--no-forward`: answered as `listen` answers,
  /// recorded.
  func testPlainHTTPToAnSDKHostIsDecoded() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: false, authorityDirectory: directory.appendingPathComponent("ca"))
    let (server, collector) = try await startServer(configuration)
    let reply = try httpRequest(
      port: server.proxyPort ?? 0, path: "http://api.segment.io/v1/track", headers: ["Host: api.segment.io"],
      body: #"{"type":"track","userId":"u-1","event":"Play Podcast"}"#)
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["Play Podcast"])
    try await server.shutdown()
  }

  /// With `--token`, the proxy is no open relay: `407` without the token as the proxy password,
  /// a tunnel with it; the CA page stays open.
  func testTokenIsTheProxyPassword() async throws {
    let echo = try await EchoServer.start()
    var configuration = ListenConfiguration(port: 0, token: "s3cret")
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["echo.test": UpstreamAddress(host: "127.0.0.1", port: echo.port)])
    let (server, _) = try await startServer(configuration)
    let port = server.proxyPort ?? 0
    let (_, refused) = try connect(port, "echo.test:7")
    XCTAssertEqual(refused, 407)
    let client = try RawClient(port: port, timeout: 20)
    let basic = Data("device:s3cret".utf8).base64EncodedString()
    client.send("CONNECT echo.test:7 HTTP/1.1\r\nProxy-Authorization: Basic \(basic)\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.status, 200)
    client.send("hello\n")
    XCTAssertEqual(client.readLine(), "hello")
    let page = try httpRequest(port: port, method: "GET", path: "/ca.pem", contentType: nil, body: [])
    XCTAssertEqual(page?.status, 200)
    XCTAssertEqual(server.statistics.rejected[.badToken], 1)
    try await server.shutdown()
    try await echo.shutdown()
  }

  /// A session that cannot take more: an SDK request gets `503` + `Retry-After` and is not
  /// forwarded (the vendor never gets what the recording lacks).
  func testAFullSessionHoldsSDKsBack() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"))
    let server = try await ListenServer.start(configuration: configuration, ingest: FullIngest())
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    let body = #"{"batch":[{"type":"track","userId":"u-1","event":"Play"}]}"#
    client.send(
      "POST http://api.segment.io/v1/batch HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    XCTAssertEqual(client.readResponse()?.status, 503)
    XCTAssertEqual(server.statistics.busyReplies, 1)
    XCTAssertEqual(server.statistics.upstreamFailures, 0)
    try await server.shutdown()
  }

  /// Large bodies wait for the one parsing thread within listen's byte budget (64 MB): past it an
  /// SDK request gets `503` + `Retry-After`, as listen answers, and nothing of it is forwarded.
  func testLargeBodiesPastTheParsingBudgetAreHeldBack() async throws {
    let closed = closedPort
    let (server, _) = try await startProxy(resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: closed)])
    let parsing = DispatchSemaphore(value: 0)
    RequestPolicy.parser.async { parsing.wait() }
    var held = true
    defer { if held { parsing.signal() } }
    // PostHog's path, whose own limit (20 MB) takes these 17 MB bodies.
    let event = #"{"event":"Big","properties":{"p":"\#(String(repeating: "x", count: 1_000))"}}"#
    let body =
      #"{"api_key":"k","batch":["# + Array(repeating: event, count: 17_000).joined(separator: ",") + "]}"
    let request =
      "POST http://us.i.posthog.com/batch/ HTTP/1.1\r\nHost: us.i.posthog.com\r\n"
      + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    var waiting: [RawClient] = []
    for _ in 0..<3 {
      let client = try RawClient(port: server.proxyPort ?? 0, timeout: 60)
      client.send(request)
      waiting.append(client)
    }
    XCTAssertTrue(eventually { server.statistics.offloadedBodies == 3 }, server.statistics.summary)
    let refused = try RawClient(port: server.proxyPort ?? 0, timeout: 60)
    refused.send(request)
    XCTAssertEqual(refused.readResponse()?.status, 503)
    XCTAssertEqual(server.statistics.busyReplies, 1)
    XCTAssertEqual(server.statistics.proxiedRequests, 3, "the refused request was not proxied")
    parsing.signal()
    held = false
    for client in waiting { XCTAssertEqual(client.readResponse()?.status, 502, "forwarded to a closed port") }
    try await server.shutdown()
  }

  /// A declared length past the limit is refused at once, as listen refuses it (Segment's `400`
  /// `request_too_large` here), not waited for until the request timeout; nothing is proxied.
  func testADeclaredLengthPastTheLimitIsRefusedAtOnce() async throws {
    let (server, _) = try await startProxy()
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    client.send(
      "POST http://api.segment.io/v1/batch HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
        + "Content-Length: 1099511627776\r\n\r\n")
    let reply = client.readResponse()
    XCTAssertEqual(reply?.status, 400)
    XCTAssertTrue(reply?.body.contains("request_too_large") ?? false, "\(String(describing: reply))")
    XCTAssertEqual(server.statistics.proxiedRequests, 0)
    XCTAssertEqual(server.statistics.timeouts[.request] ?? 0, 0)
    try await server.shutdown()
  }

  // MARK: Bad clients, bad upstreams

  /// A client that never finishes its TLS handshake is closed after the handshake deadline; others
  /// are answered meanwhile.
  func testAHandshakeNeverFinishedDoesNotHoldOthers() async throws {
    let (server, _) = try await startProxy()
    let port = server.proxyPort ?? 0
    let (stuck, status) = try connect(port, "api.segment.io:443")
    XCTAssertEqual(status, 200)
    stuck.send([0x16, 0x03, 0x01])  // The first bytes of a ClientHello, then nothing.
    let probe = try httpRequest(port: port, method: "GET", path: "/ca.pem", contentType: nil, body: [])
    XCTAssertEqual(probe?.status, 200)
    XCTAssertTrue(probe?.body.hasPrefix("-----BEGIN CERTIFICATE-----") ?? false)
    XCTAssertTrue(stuck.waitForClose())
    XCTAssertTrue(eventually { server.statistics.timeouts[.proxyHandshake] == 1 })
    try await server.shutdown()
  }

  /// `CONNECT` to a port nobody listens on: `502`, and the proxy goes on.
  func testConnectToAClosedPortIsABadGateway() async throws {
    let closed = closedPort
    let (server, _) = try await startProxy(resolve: [
      "closed.test": UpstreamAddress(host: "127.0.0.1", port: closed)
    ])
    let (_, status) = try connect(server.proxyPort ?? 0, "closed.test:443")
    XCTAssertEqual(status, 502)
    XCTAssertEqual(server.statistics.upstreamFailures, 1)
    let (_, refused) = try connect(server.proxyPort ?? 0, "no-port-here")
    XCTAssertEqual(refused, 400)
    try await server.shutdown()
  }

  /// 500 tunnels open at once each carry their own bytes both ways; the proxy still answers.
  func testFiveHundredConcurrentTunnels() async throws {
    let echo = try await EchoServer.start()
    let (server, collector) = try await startProxy(resolve: [
      "echo.test": UpstreamAddress(host: "127.0.0.1", port: echo.port)
    ])
    let port = server.proxyPort ?? 0
    var clients: [RawClient] = []
    for index in 0..<500 {
      let (client, status) = try connect(port, "echo.test:7")
      XCTAssertEqual(status, 200, "tunnel \(index)")
      clients.append(client)
    }
    let probe = try httpRequest(port: port, method: "GET", path: "/", contentType: nil, body: [])
    XCTAssertEqual(probe?.status, 200)
    for (index, client) in clients.enumerated() { client.send("ping \(index)\n") }
    for (index, client) in clients.enumerated() {
      XCTAssertEqual(client.readLine(), "ping \(index)", "tunnel \(index)")
    }
    XCTAssertEqual(server.statistics.tunnels, 500)
    XCTAssertEqual(collector.records.count, 0)
    clients.removeAll()
    try await server.shutdown()
    try await echo.shutdown()
  }
}

/// An ingest that never has room.
final class FullIngest: ListenIngest {
  func deliver(_ event: ListenEvent) {}
  var hasRoom: Bool { false }
  func whenRoom(_ resume: @escaping @Sendable () -> Void) {}
}

/// A port nothing listens on, for an upstream that refuses: 1 (tcpmux) is privileged and never an
/// ephemeral port, so no server a test starts can take it (a port freed by a test could be handed
/// out again, even to the proxy's own `listen`, which then answered the "unreachable" host).
let closedPort = 1

extension RawClient {
  /// One line (without its newline), or `nil` at the end of the stream.
  func readLine() -> String? {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(descriptor, &byte, 1) == 1 {
      if byte == 10 { return String(decoding: line, as: UTF8.self) }
      line.append(byte)
    }
    return nil
  }
}
