import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Braze's and Adobe Edge's other SDK paths sent over HTTPS to the vendors' real host names
/// through `tagscope proxy` (the test-only resolve override points them at a local TLS vendor, as
/// in ``BrazeAdobeContentProxyTests``): the SDK's own requests and events are recorded and relayed
/// byte for byte; an Edge version Tagscope does not read is relayed as it was and reported with
/// its path (it was relayed unreported); with `--no-forward` it is answered `404` with why.
final class BrazeAdobeSDKPathProxyTests: ProxiedVendorTestCase {
  override var hosts: [String] {
    ["sdk.iad-01.braze.com", "edge.adobedc.net"]
  }

  private func problems(_ collector: Collector) -> [String] {
    collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
  }

  func testTheyAreRecordedOrReportedAndForwardedByteForByte() async throws {
    let (server, collector) = try await startProxy(forward: true)
    let port = server.proxyPort ?? 0
    let cases = [
      ("sdk.iad-01.braze.com", "/api/v3/banners/sync", BrazeSDKPathTests.banners),
      ("sdk.iad-01.braze.com", "/api/v3/geofence/report", BrazeSDKPathTests.geofenceReport),
      ("sdk.iad-01.braze.com", "/api/v3/push_token_tag", BrazeSDKPathTests.pushTokenTag),
      ("edge.adobedc.net", "/ee/v1/identity/acquire", AdobeEdgePathTests.acquire),
      ("edge.adobedc.net", "/ee/va/v1/sessionStart", AdobeEdgePathTests.mediaStart),
      ("edge.adobedc.net", "/ee/v3/interact", AdobeEdgePathTests.mediaStart),
    ]
    for (host, path, body) in cases {
      let result = try post("https://\(host)\(path)", body, proxyPort: port)
      XCTAssertEqual(result.status, 0, result.output)
      let received = try XCTUnwrap(vendor.requests.last)
      XCTAssertEqual(received.host, host)
      XCTAssertEqual(received.path, path)
      XCTAssertEqual(received.body, result.sent, "\(path): relayed byte for byte")
    }
    XCTAssertEqual(
      collector.waitForRecords(5).map(\.name),
      ["banners_sync", "geofence", "live_activity_push_token_tag", "identity_acquire", "media.sessionStart"])
    XCTAssertEqual(vendor.requests.count, cases.count, "everything forwarded")
    XCTAssertTrue(
      eventually { self.problems(collector).contains { $0.contains("edge.adobedc.net/ee/v3/interact") } })
    XCTAssertEqual(server.statistics.rejected[.unknownEndpoint], 1, server.statistics.summary)
    try await server.shutdown()
  }

  func testWithoutForwardingAnUnknownEdgeVersionIsAnsweredWithWhy() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let port = server.proxyPort ?? 0
    let unknown = try post(
      "https://edge.adobedc.net/ee/v3/interact", AdobeEdgePathTests.mediaStart, proxyPort: port)
    XCTAssertTrue(unknown.output.hasPrefix("404 - "), unknown.output)
    XCTAssertTrue(unknown.output.contains("Edge API version v3 is not one Tagscope reads"), unknown.output)
    let log = try post(
      "https://sdk.iad-01.braze.com/api/v3/debugger/log", BrazeSDKPathTests.debuggerLog, proxyPort: port)
    XCTAssertEqual(log.output, #"200 - {"message":"success"}"#)
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["sdk_debugger_log"])
    XCTAssertEqual(vendor.requests.count, 0, "nothing forwarded")
    try await server.shutdown()
  }
}
