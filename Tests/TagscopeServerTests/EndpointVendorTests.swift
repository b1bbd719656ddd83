import AnalyticsProviders
import XCTest

@testable import TagscopeServer

/// Every provider id `listen` records (each SDK endpoint's, `a|b` for a path two SDKs share) is
/// a vendor of the registry plans are checked against: a plan naming it loads.
final class EndpointVendorTests: XCTestCase {
  func testEveryEndpointsProviderIsAKnownSDKVendor() {
    let endpoints = EndpointRouter.paths.map(\.endpoint.provider) + ["rudderstack"]
    for provider in endpoints {
      for id in provider.split(separator: "|").map(String.init) {
        let vendor = Vendors.vendor(named: id)
        XCTAssertNotNil(vendor, "\(id) is not in Vendors.all")
        XCTAssertEqual(vendor?.paths.contains(.sdk), true, "\(id) is not marked as decoded from its SDK")
      }
    }
  }
}
