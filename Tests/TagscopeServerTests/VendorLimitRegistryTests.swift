import AnalyticsHub
import AnalyticsProviders
import NIOHTTP1
import XCTest

@testable import TagscopeServer

/// Issue 43: the limits `listen` and the proxy hold SDK requests to are the registry's
/// (`Vendors.limits`), not numbers kept beside each decoder: every SDK path has one, each names a
/// path its vendors serve and where it is written down, and the decoder a path is routed to takes
/// exactly the largest request the registry allows there.
final class VendorLimitRegistryTests: XCTestCase {
  /// A path an SDK sends for a registry path (`KEY` and `MPID` filled in).
  func concrete(_ path: String) -> String {
    path.replacingOccurrences(of: "KEY", with: "k3y").replacingOccurrences(of: "MPID", with: "123")
  }

  /// Paths whose registry bound the decoder checks once the body is read, framing it at a larger one.
  static let checkedOnceRead: Set<String> = ["/v1/import", "/v1/b"]

  func testEverySDKPathHasALimitAndTheRouterHoldsItsRequestsToIt() {
    var checked = 0
    for endpoint in Vendors.endpoints {
      let limits = Vendors.limits(forPath: endpoint.path)
      XCTAssertFalse(limits.isEmpty, "\(endpoint.path) has no limit in the registry")
      guard let largest = limits.map(\.requestBytes).max() else { continue }
      guard case .endpoint(let decoder) = EndpointRouter.route(method: .POST, path: concrete(endpoint.path))
      else {
        XCTFail("POST \(endpoint.path) is not routed")
        continue
      }
      // Segment's batch decoder frames every batch path at RudderStack's 4 MB (it tells the two
      // apart by the messages) and holds Segment's batches to 500 KB once read.
      let framed =
        Self.checkedOnceRead.contains(endpoint.path) ? Vendor.Limit.rudderStackBatch.requestBytes : largest
      XCTAssertEqual(decoder.bodyLimit, framed, "\(endpoint.path): the decoder's limit is not the registry's")
      // The proxy and listen's chunked bodies read the same limit off the request line.
      XCTAssertEqual(
        ChunkSizeGuard.endpointLimit(requestLine: "POST \(concrete(endpoint.path)) HTTP/1.1"), framed,
        endpoint.path)
      checked += 1
    }
    XCTAssertGreaterThan(checked, 40)
  }

  func testEveryLimitNamesAServedPathOfAnSDKVendorAndItsSource() {
    let served = Set(Vendors.endpoints.map(\.path))
    for limit in Vendors.limits {
      let vendor = Vendors.vendor(named: limit.vendor.rawValue)
      XCTAssertEqual(vendor?.paths.contains(.sdk), true, "\(limit.vendor): not an SDK vendor")
      XCTAssertFalse(limit.paths.isEmpty)
      for path in limit.paths {
        XCTAssertTrue(served.contains(path), "\(limit.vendor): \(path) is not served")
      }
      XCTAssertFalse(limit.source.isEmpty, "\(limit.vendor) \(limit.paths): no source")
      XCTAssertFalse(limit.pastIt.isEmpty)
      if let eventBytes = limit.eventBytes { XCTAssertLessThanOrEqual(eventBytes, limit.requestBytes) }
    }
  }

  func testTheBoundsTheDecodersCheckInsideARequestAreTheRegistrys() {
    XCTAssertEqual(SegmentEndpoint.batchEvents, 2_500)
    XCTAssertEqual(SegmentEndpoint.batchLimit, Vendor.Limit.segmentBatch.requestBytes)
    XCTAssertEqual(SegmentEndpoint.messageLimit, Vendor.Limit.segmentBatch.eventBytes)
    XCTAssertEqual(AmplitudeEndpoint.maximumEvents, Vendor.Limit.amplitudeBatch.eventsPerRequest)
    XCTAssertEqual(MixpanelEndpoint.maximumEvents, Vendor.Limit.mixpanelImport.eventsPerRequest)
    XCTAssertEqual(MixpanelEndpoint.eventBytes, Vendor.Limit.mixpanelImport.eventBytes)
    XCTAssertEqual(PostHogEndpoint.eventBytes, 1024 * 1024)
    XCTAssertEqual(MParticleEndpoint.maximumBatches, 100)
  }

  func testTheSummaryReadsAsHelpPrintsIt() {
    XCTAssertEqual(Vendor.Limit.segmentBatch.summary, "500 KB a request, 32 KB an event, 2,500 events")
    XCTAssertEqual(Vendor.Limit.ga4Collect.summary, "130 kB a request, 25 events")
    XCTAssertEqual(Vendor.Limit.amplitudeBatch.summary, "20 MB a request, 2,000 events")
  }
}
