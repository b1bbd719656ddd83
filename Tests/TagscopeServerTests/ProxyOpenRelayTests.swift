import Foundation
import NIOCore
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope proxy` is no open relay (issue 42, item 2): off loopback it needs a token, and it
/// never connects a client to this machine's services — loopback, link-local or unspecified
/// addresses, however written or resolved, nor its own ports — unless asked.
final class ProxyOpenRelayTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  private func startProxy(
    allowsLoopback: Bool = false, resolve: [String: UpstreamAddress] = [:]
  ) async throws -> ListenServer {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"), resolve: resolve)
    configuration.proxy?.allowsLoopbackUpstream = allowsLoopback
    return try await startServer(configuration).0
  }

  /// Sends `CONNECT authority` and returns the proxy's answer.
  private func connect(_ port: Int, _ authority: String) throws -> (status: Int, body: String)? {
    let client = try RawClient(port: port, timeout: 20)
    client.send("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n\r\n")
    return client.readResponse()
  }

  /// Off loopback without a token the proxy does not start, and says how to fix it; with a
  /// token, on loopback, or with `--allow-no-token` it may. Nothing is bound when it refuses.
  func testAProxyReachableFromTheNetworkNeedsAToken() async throws {
    let proxy = ProxyConfiguration(port: 0, authorityDirectory: directory.appendingPathComponent("ca"))
    for bind in ["0.0.0.0", "::", "192.168.1.20", "[::]", "tagscope.local"] {
      let refusal = proxy.startRefusal(bindAddress: bind, hasToken: false)
      XCTAssertTrue(refusal?.contains("--token") ?? false, bind)
      XCTAssertTrue(refusal?.contains("--allow-no-token") ?? false, bind)
      XCTAssertNil(proxy.startRefusal(bindAddress: bind, hasToken: true), bind)
    }
    for bind in ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"] {
      XCTAssertNil(proxy.startRefusal(bindAddress: bind, hasToken: false), bind)
    }
    var allowed = proxy
    allowed.allowsNoToken = true
    XCTAssertNil(allowed.startRefusal(bindAddress: "0.0.0.0", hasToken: false))

    var configuration = ListenConfiguration(host: "0.0.0.0", port: 0)
    configuration.proxy = proxy
    do {
      let server = try await ListenServer.start(configuration: configuration) { _ in }
      try await server.shutdown()
      XCTFail("a proxy on 0.0.0.0 without a token started")
    } catch let refusal as ProxyStartRefusal {
      XCTAssertTrue(refusal.description.contains("0.0.0.0"), refusal.description)
    }
  }

  /// `CONNECT` to loopback, link-local or unspecified addresses, written any way (a short IPv4
  /// form, IPv4-mapped IPv6, a name that resolves to loopback), is refused with `403` and a
  /// plain reason: the service listening there (a TCP echo) is never reached.
  func testTunnelsToThisMachineAreRefused() async throws {
    let echo = try await EchoServer.start()
    let server = try await startProxy()
    let port = server.proxyPort ?? 0
    for target in [
      "127.0.0.1:\(echo.port)", "127.1:\(echo.port)", "localhost:\(echo.port)", "[::1]:\(echo.port)",
      "[::ffff:127.0.0.1]:\(echo.port)", "0.0.0.0:\(echo.port)", "[::]:\(echo.port)",
      "2130706433:\(echo.port)",
      "169.254.169.254:80", "[fe80::1]:80", "[::ffff:169.254.1.1]:80", "[64:ff9b::7f00:1]:\(echo.port)",
    ] {
      let reply = try connect(port, target)
      XCTAssertEqual(reply?.status, 403, target)
      XCTAssertTrue(reply?.body.contains("refused") ?? false, "\(target): \(String(describing: reply))")
    }
    XCTAssertEqual(server.statistics.tunnels, 0)
    try await server.shutdown()
    try await echo.shutdown()
  }

  /// Plain HTTP in absolute form to a loopback address is refused too, on the first request of a
  /// connection and on a later one (each request is routed by its own target).
  func testAbsoluteFormRequestsToThisMachineAreRefused() async throws {
    let vendor = try await PlainVendorServer.start()
    let server = try await startProxy(resolve: [
      "vendor.test": UpstreamAddress(host: "127.0.0.1", port: vendor.port)
    ])
    let port = server.proxyPort ?? 0
    let first = try RawClient(port: port, timeout: 20)
    first.send("GET http://127.0.0.1:\(vendor.port)/first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    XCTAssertEqual(first.readResponse()?.status, 403)
    let later = try RawClient(port: port, timeout: 20)
    later.send("GET http://vendor.test/allowed HTTP/1.1\r\nHost: vendor.test\r\n\r\n")
    XCTAssertEqual(later.readResponse()?.status, 200)
    later.send("GET http://localhost:\(vendor.port)/later HTTP/1.1\r\nHost: localhost\r\n\r\n")
    let refused = later.readResponse()
    XCTAssertEqual(refused?.status, 403)
    XCTAssertTrue(refused?.body.contains("loopback") ?? false, String(describing: refused))
    XCTAssertEqual(vendor.requests.map(\.target), ["/allowed"])
    try await server.shutdown()
    await vendor.shutdown()
  }

  /// With `--allow-loopback-upstream` a local service is reached; the proxy's own ports (the
  /// proxy's and listen's, whose query API it would open) stay refused, by name and by address.
  func testTheOptInReachesLocalServicesButNeverTheProxysOwnPorts() async throws {
    let echo = try await EchoServer.start()
    let server = try await startProxy(allowsLoopback: true)
    let port = server.proxyPort ?? 0
    let client = try RawClient(port: port, timeout: 20)
    client.send("CONNECT 127.0.0.1:\(echo.port) HTTP/1.1\r\n\r\n")
    XCTAssertEqual(client.readResponse()?.status, 200)
    client.send("hello\n")
    XCTAssertEqual(client.readLine(), "hello")
    for target in [
      "127.0.0.1:\(port)", "localhost:\(port)", "127.0.0.1:\(server.port)",
      "[::ffff:127.0.0.1]:\(server.port)",
      "0.0.0.0:\(server.port)",
    ] {
      let reply = try connect(port, target)
      XCTAssertEqual(reply?.status, 403, target)
      XCTAssertTrue(reply?.body.contains("own port") ?? false, "\(target): \(String(describing: reply))")
    }
    try await server.shutdown()
    try await echo.shutdown()
  }

  /// The addresses refused, in every form that embeds one, and some that are not.
  func testTheAddressesRefused() throws {
    let policy = UpstreamPolicy(allowsLoopback: false, ownPorts: [8888], localAddresses: [])
    for address in [
      "127.0.0.1", "127.255.255.254", "::1", "::", "0.0.0.0", "0.1.2.3", "169.254.169.254", "fe80::1",
      "febf::1", "::ffff:127.0.0.1", "::ffff:169.254.1.1", "::127.0.0.1", "64:ff9b::7f00:1",
    ] {
      let socket = try SocketAddress(ipAddress: address, port: 443)
      XCTAssertNotNil(policy.refusal([socket], host: address), address)
    }
    for address in ["10.0.0.1", "192.0.2.7", "2001:db8::1", "fec0::1", "::ffff:192.0.2.7"] {
      let socket = try SocketAddress(ipAddress: address, port: 443)
      XCTAssertNil(policy.refusal([socket], host: address), address)
    }
    let allowing = UpstreamPolicy(allowsLoopback: true, ownPorts: [8888], localAddresses: [[192, 0, 2, 7]])
    XCTAssertNil(allowing.refusal([try SocketAddress(ipAddress: "127.0.0.1", port: 443)], host: "a"))
    XCTAssertNotNil(allowing.refusal([try SocketAddress(ipAddress: "127.0.0.1", port: 8888)], host: "a"))
    XCTAssertNotNil(allowing.refusal([try SocketAddress(ipAddress: "192.0.2.7", port: 8888)], host: "a"))
    XCTAssertNil(allowing.refusal([try SocketAddress(ipAddress: "192.0.2.8", port: 8888)], host: "a"))
  }
}
