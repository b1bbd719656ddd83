import Foundation
import NIOCore
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Braze, Piano Analytics and AT Internet requests sent to their real host names through
/// `tagscope proxy` (the test-only resolve override points them at a local TLS vendor, as in
/// ``ProxySDKTests``): decrypted, recorded as their vendor's calls, relayed byte for byte; with
/// `--no-forward` answered as the vendor answers. Fixtures: `Tests/Fixtures/braze-piano-wire`.
final class BrazePianoProxyTests: XCTestCase {
  private var directory: URL!
  private var vendor: VendorServer!

  static let vendorHosts = [
    "sdk.fra-01.braze.eu", "sdk.iad-01.braze.com", "abc123.pa-cd.com", "logs.xiti.com",
  ]

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "braze-piano-proxy-\(UUID().uuidString)")
    vendor = try await VendorServer.start(
      hosts: Self.vendorHosts, directory: directory.appendingPathComponent("vendor"))
  }

  override func tearDown() async throws {
    await vendor.shutdown()
    try? FileManager.default.removeItem(at: directory)
  }

  private func startProxy(forward: Bool = true) async throws -> (ListenServer, Collector) {
    try await startServer(
      vendor.proxyConfiguration(
        authorityDirectory: directory.appendingPathComponent("proxy-ca"), forward: forward))
  }

  /// `proxy_client.py post URL FILE` (FILE gzip'd JSON) or `tunnel URL CA` (a `GET`, here
  /// verified against the proxy's CA: decrypted by the proxy) through the proxy.
  private func runClient(_ arguments: [String], proxyPort: Int) throws -> (status: Int32, output: String) {
    return try runProxyClient(
      arguments, proxyPort: proxyPort, caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
  }

  private func gzipFixture(_ name: String) throws -> (path: String, body: [UInt8]) {
    let json = try Data(
      contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/braze-piano-wire/\(name)"))
    let body = try gzip(Array(json))
    let file = directory.appendingPathComponent(name + ".gz")
    try Data(body).write(to: file)
    return (file.path, body)
  }

  func testBrazePianoAndATInternetAreDecryptedRecordedAndForwarded() async throws {
    let (server, collector) = try await startProxy()
    let braze = try gzipFixture("braze-web-2.5.2.json")
    var result = try runClient(
      ["post", "https://sdk.fra-01.braze.eu/api/v3/data/", braze.path], proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertEqual(
      collector.waitForRecords(2).map { "\($0.outputs.first?.provider ?? "-") \($0.name)" },
      ["braze add_to_cart", "braze language"])
    var received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.host, "sdk.fra-01.braze.eu")
    XCTAssertEqual(received.path, "/api/v3/data/")
    XCTAssertEqual(received.body, braze.body)

    let piano = try gzipFixture("piano-android.json")
    result = try runClient(
      ["post", "https://abc123.pa-cd.com/event?s=447850&idclient=v-0f1e", piano.path],
      proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertEqual(collector.waitForRecords(4).suffix(2).map(\.name), ["favorites", "click.action"])
    received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.host, "abc123.pa-cd.com")
    XCTAssertEqual(received.body, piano.body)

    let hit =
      "https://logs.xiti.com/hit.xiti?s=552987&type=click&click=N&p=catalogue::open_podcast&idclient=v-1"
    result = try runClient(
      ["tunnel", hit, directory.appendingPathComponent("proxy-ca/ca.pem").path],
      proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    let last = try XCTUnwrap(collector.waitForRecords(5).last)
    XCTAssertEqual(last.outputs.first?.calls.first?.name, "click.navigation")
    XCTAssertEqual(last.outputs.first?.calls.first?.parameters["click_chapter1"], "catalogue")
    received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.host, "logs.xiti.com")
    XCTAssertEqual(received.path, "/hit.xiti")
    XCTAssertEqual(server.statistics.tunnels, 0)
    XCTAssertEqual(server.statistics.upstreamFailures, 0, server.statistics.summary)
    try await server.shutdown()
  }

  /// `--no-forward`: Braze gets `{}`, Piano an empty `200`, AT Internet its GIF; nothing reaches
  /// the vendor.
  func testNoForwardAnswersAsTheVendors() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let braze = try gzipFixture("braze-roku-2.2.0.json")
    var result = try runClient(
      ["post", "https://sdk.iad-01.braze.com/api/v3/data", braze.path], proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertEqual(result.output, "200 - {}")
    let piano = try gzipFixture("piano-android.json")
    result = try runClient(
      ["post", "https://abc123.pa-cd.com/event?s=447850&idclient=v-0f1e", piano.path],
      proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.output, "200 - ")
    result = try runClient(
      [
        "tunnel", "https://logs.xiti.com/hit.xiti?s=1&p=home",
        directory.appendingPathComponent("proxy-ca/ca.pem").path,
      ],
      proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertTrue(result.output.hasPrefix("200 GIF89a"), result.output)
    XCTAssertEqual(collector.waitForRecords(17).count, 17)
    XCTAssertEqual(vendor.requests.count, 0)
    try await server.shutdown()
  }
}
