import AnalyticsProviders
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Adobe's requests sent over HTTPS to Adobe's real host names through `tagscope proxy`, which
/// resolves them to a local TLS vendor (``VendorServer``): decrypted, recorded as `listen`
/// records them, answered as Adobe answers with `--no-forward`, forwarded byte for byte without.
final class AdobeProxyTests: ProxiedVendorTestCase {
  override var hosts: [String] {
    [
      "edge.adobedc.net", "acme.sc.omtrdc.net", "acme.112.2o7.net", "metrics.acme.test", "data.acme.test",
    ]
  }

  func testWithoutForwardingTheProxyAnswersAsAdobe() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let port = server.proxyPort ?? 0
    let edge = try post(
      "https://edge.adobedc.net/ee/v1/interact?configId=c-1&requestId=r-1", AdobeWireFixtures.edgeTwoEvents,
      proxyPort: port)
    XCTAssertEqual(edge.status, 0, edge.output)
    XCTAssertEqual(edge.output, "200 - \u{0}{\"requestId\":\"r-1\",\"handle\":[]}\n")
    let hit = try post(
      "https://acme.sc.omtrdc.net" + AdobeWireFixtures.hitPath, AdobeWireFixtures.actionHit, proxyPort: port)
    XCTAssertEqual(hit.status, 0, hit.output)
    XCTAssertTrue(hit.output.hasPrefix("200 - GIF89a"), hit.output)
    let records = collector.waitForRecords(3)
    XCTAssertEqual(records.map(\.name), ["web.webpagedetails.pageViews", "commerce.purchases", "testAction"])
    XCTAssertEqual(
      records.compactMap { $0.outputs.first?.calls.first?.method }, ["sendEvent", "sendEvent", "trackAction"])
    XCTAssertEqual(vendor.requests.count, 0, "nothing forwarded")
    try await server.shutdown()
  }

  func testForwardedRequestsReachAdobesHostsByteForByte() async throws {
    let (server, collector) = try await startProxy(forward: true)
    let port = server.proxyPort ?? 0
    let cases = [
      ("edge.adobedc.net", "/ee/or2/v1/interact", AdobeWireFixtures.edgeInteract),
      ("acme.112.2o7.net", AdobeWireFixtures.hitPath, AdobeWireFixtures.lifecycleHit),
    ]
    for (index, (host, path, body)) in cases.enumerated() {
      let result = try post("https://\(host)\(path)", body, proxyPort: port)
      XCTAssertEqual(result.status, 0, result.output)
      XCTAssertEqual(collector.waitForRecords(index + 1).count, index + 1, server.statistics.summary)
      let received = try XCTUnwrap(vendor.requests.last)
      XCTAssertEqual(received.host, host)
      XCTAssertEqual(received.path, path)
      XCTAssertEqual(received.body, result.sent, "relayed byte for byte")
    }
    XCTAssertEqual(collector.records.map(\.name), ["sendEvent", "Lifecycle"])
    try await server.shutdown()
  }

  /// A customer's own tracking server (`analytics.server`, a CNAME) or Edge domain
  /// (`edge.domain`), added with `--intercept` as `help proxy` says, is decoded on Adobe's paths
  /// and forwarded to it.
  func testACustomersOwnAdobeHostsAreDecodedWhenIntercepted() async throws {
    let (server, collector) = try await startProxy(
      forward: true, intercept: ["metrics.acme.test", "data.acme.test"])
    let port = server.proxyPort ?? 0
    let hit = try post(
      "https://metrics.acme.test" + AdobeWireFixtures.hitPath, AdobeWireFixtures.actionHit, proxyPort: port)
    XCTAssertEqual(hit.status, 0, hit.output)
    let edge = try post(
      "https://data.acme.test/ee/v1/interact", AdobeWireFixtures.edgeTwoEvents, proxyPort: port)
    XCTAssertEqual(edge.status, 0, edge.output)
    XCTAssertEqual(
      collector.waitForRecords(3).map(\.name),
      ["testAction", "web.webpagedetails.pageViews", "commerce.purchases"])
    XCTAssertEqual(vendor.requests.map(\.host), ["metrics.acme.test", "data.acme.test"])
    try await server.shutdown()
    XCTAssertTrue(
      Vendors.vendor(Vendors.adobe)?.wireNote?.contains("--intercept") ?? false, "help proxy says how")
  }
}
