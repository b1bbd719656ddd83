import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Braze's content requests and Adobe Edge's consent requests sent over HTTPS to the vendors' real
/// host names through `tagscope proxy` (the test-only resolve override points them at a local TLS
/// vendor, as in ``AdobeProxyTests``): they were forwarded unrecorded; now each is decrypted,
/// recorded, and relayed byte for byte; with `--no-forward` answered as the vendor answers.
final class BrazeAdobeContentProxyTests: ProxiedVendorTestCase {
  override var hosts: [String] {
    ["sdk.iad-01.braze.com", "edge.adobedc.net"]
  }

  func testContentAndConsentRequestsAreRecordedAndForwardedByteForByte() async throws {
    let (server, collector) = try await startProxy(forward: true)
    let port = server.proxyPort ?? 0
    let cases = [
      ("sdk.iad-01.braze.com", "/api/v3/content_cards/sync", BrazeContentRequestTests.contentCards),
      ("edge.adobedc.net", "/ee/v1/privacy/set-consent", AdobeEdgeConsentAndV2Tests.consent("n")),
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
    XCTAssertEqual(collector.records.map(\.name), ["content_cards_sync", "consent"])
    XCTAssertEqual(collector.records.map { $0.outputs.first?.provider }, ["braze", "adobe"])
    try await server.shutdown()
  }

  func testWithoutForwardingTheProxyAnswersAsBrazeAndAdobe() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let port = server.proxyPort ?? 0
    let flags = try post(
      "https://sdk.iad-01.braze.com/api/v3/feature_flags/sync", BrazeContentRequestTests.featureFlags,
      proxyPort: port)
    XCTAssertEqual(flags.status, 0, flags.output)
    XCTAssertEqual(flags.output, #"200 - {"message":"success","feature_flags":[]}"#)
    let consent = try post(
      "https://edge.adobedc.net/ee/or2/v1/privacy/set-consent?requestId=r-1",
      AdobeEdgeConsentAndV2Tests.consent("y"),
      proxyPort: port)
    XCTAssertEqual(consent.output, "200 - \u{0}{\"requestId\":\"r-1\",\"handle\":[]}\n")
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["feature_flags_sync", "consent"])
    XCTAssertEqual(vendor.requests.count, 0, "nothing forwarded")
    try await server.shutdown()
  }
}
