import Foundation
import NIOCore
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// PayPal's and Braintree's FPTI requests sent to their real host names through `tagscope proxy`
/// (the test-only resolve override points them at a local TLS vendor, as in ``ProxySDKTests``):
/// decrypted, recorded as FPTI calls, relayed byte for byte; the host's other paths (the payments
/// API) forwarded unrecorded; with `--no-forward` answered as listen answers. Fixtures:
/// `Tests/Fixtures/fpti-wire`.
final class FPTIProxyTests: XCTestCase {
  private var directory: URL!
  private var vendor: VendorServer!

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fpti-proxy-\(UUID().uuidString)")
    vendor = try await VendorServer.start(
      hosts: ["api-m.paypal.com", "api.paypal.com"], directory: directory.appendingPathComponent("vendor"))
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

  /// `proxy_client.py post URL FILE` (FILE gzip'd JSON) or `tunnel URL CA` (a `GET` verified
  /// against the proxy's CA) through the proxy.
  private func runClient(_ arguments: [String], proxyPort: Int) throws -> (status: Int32, output: String) {
    return try runProxyClient(
      arguments, proxyPort: proxyPort, caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
  }

  private func gzipFixture(_ name: String) throws -> (path: String, body: [UInt8]) {
    let json = try Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/fpti-wire/\(name)"))
    let body = try gzip(Array(json))
    let file = directory.appendingPathComponent(name + ".gz")
    try Data(body).write(to: file)
    return (file.path, body)
  }

  func testFPTIIsDecryptedRecordedAndForwardedAndThePaymentsAPIOnlyForwarded() async throws {
    let (server, collector) = try await startProxy()
    let ios = try gzipFixture("paypal-ios.json")
    var result = try runClient(
      ["post", "https://api-m.paypal.com/v1/tracking/events", ios.path], proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertEqual(
      collector.waitForRecords(1).map { "\($0.outputs.first?.provider ?? "-") \($0.name)" },
      ["fpti paypal-web-payments:checkout:started"])
    var received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.host, "api-m.paypal.com")
    XCTAssertEqual(received.path, "/v1/tracking/events")
    XCTAssertEqual(received.body, ios.body)

    let braintree = try gzipFixture("braintree-ios.json")
    result = try runClient(
      ["post", "https://api.paypal.com/v1/tracking/batch/events", braintree.path],
      proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    let records = collector.waitForRecords(4)
    XCTAssertEqual(
      records.suffix(3).map { $0.outputs.first?.calls.first?.method }, ["event", "event", "event"])
    XCTAssertEqual(records.last?.context.session?.id, "8F1C2D3E4B5A69788796A5B4C3D2E1F0")
    received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.host, "api.paypal.com")
    XCTAssertEqual(received.body, braintree.body)

    // The payments API on the same host: forwarded, its answer relayed, nothing recorded.
    result = try runClient(
      [
        "tunnel", "https://api-m.paypal.com/v2/checkout/orders/5O190127TN364715T",
        directory.appendingPathComponent("proxy-ca/ca.pem").path,
      ],
      proxyPort: server.proxyPort ?? 0)
    XCTAssertEqual(result.status, 0, result.output)
    received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.path, "/v2/checkout/orders/5O190127TN364715T")
    XCTAssertEqual(vendor.requests.count, 3)
    XCTAssertEqual(collector.records.count, 4)
    XCTAssertEqual(server.statistics.tunnels, 0)
    XCTAssertEqual(server.statistics.upstreamFailures, 0, server.statistics.summary)
    try await server.shutdown()
  }

  /// `--no-forward`: the SDKs get `{}`; nothing reaches PayPal.
  func testNoForwardAnswersAsPayPal() async throws {
    let (server, collector) = try await startProxy(forward: false)
    for (url, name) in [
      ("https://api-m.paypal.com/v1/tracking/events", "paypal-android.json"),
      ("https://api-m.paypal.com/v1/tracking/batch/events", "braintree-android.json"),
    ] {
      let fixture = try gzipFixture(name)
      let result = try runClient(["post", url, fixture.path], proxyPort: server.proxyPort ?? 0)
      XCTAssertEqual(result.status, 0, result.output)
      XCTAssertEqual(result.output, "200 - {}")
    }
    XCTAssertEqual(collector.waitForRecords(3).map(\.name).first, "card-payments:approve-order:succeeded")
    let payments = try runClient(
      [
        "tunnel", "https://api-m.paypal.com/v2/checkout/orders/5O190127TN364715T",
        directory.appendingPathComponent("proxy-ca/ca.pem").path,
      ],
      proxyPort: server.proxyPort ?? 0)
    XCTAssertTrue(payments.output.hasPrefix("404"), payments.output)
    XCTAssertEqual(vendor.requests.count, 0)
    XCTAssertEqual(collector.records.count, 3)
    try await server.shutdown()
  }
}
