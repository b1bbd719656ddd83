import AnalyticsHub
import AnalyticsProviders
import NIOHTTP1
import XCTest

@testable import TagscopeServer

/// Issue 43: the SDK set-up requests `listen` answers (settings, remote configuration, telemetry)
/// are the registry's `Vendors.setupRequests`: each is answered with its methods, its `KEY`
/// segment read, and nothing else is taken for one.
final class VendorSetupRequestTests: XCTestCase {
  func testEveryRegistrySetupRequestIsAnsweredWithItsMethodsOnly() {
    XCTAssertEqual(Vendors.setupRequests.count, 7)
    for request in Vendors.setupRequests {
      let path = request.path.replacingOccurrences(of: "KEY", with: "k3y")
      for method in [HTTPMethod.GET, .POST, .PUT] {
        let route = EndpointRouter.route(method: method, path: path, host: "listen.test:7531")
        if request.methods.contains(method.rawValue) {
          guard case .settings(let reply) = route else { return XCTFail("\(method) \(path): \(route)") }
          XCTAssertEqual(reply.status, .ok, path)
        } else {
          guard case .notFound = route else { return XCTFail("\(method) \(path) is answered: \(route)") }
        }
      }
      guard case .preflight = EndpointRouter.route(method: .OPTIONS, path: path) else {
        return XCTFail("OPTIONS \(path) is not a preflight")
      }
      XCTAssertEqual(
        Vendors.vendor(named: request.vendor.rawValue)?.paths.contains(.sdk), true, "\(request.vendor)")
    }
  }

  func testTheKeySegmentAndTheQueryReachTheReply() throws {
    guard
      case .settings(let settings) = EndpointRouter.route(
        method: .GET, path: "/v1/projects/wk123/settings", host: "listen.test:7531")
    else { return XCTFail("Segment's settings are not answered") }
    let text = settings.body
    XCTAssertTrue(text.contains(#""apiKey":"wk123""#), text)
    XCTAssertTrue(
      text.contains(#""apiHost":"listen.test:7531\/v1""#) || text.contains("listen.test:7531/v1"), text)
    guard
      case .settings(let source) = EndpointRouter.route(
        method: .GET, path: "/sourceConfig", query: [("writeKey", "rs-key")])
    else { return XCTFail("RudderStack's source configuration is not answered") }
    XCTAssertTrue(source.body.contains(#""writeKey":"rs-key""#))
  }

  func testPathsNearASetupRequestAreNotTakenForOne() {
    for path in [
      "/v1/projects/settings", "/v1/projects/a/b/settings", "/v4/k/config/x", "/sourceConfigs", "/v1/mm",
    ] {
      guard case .notFound = EndpointRouter.route(method: .GET, path: path) else {
        return XCTFail("GET \(path) is answered as a set-up request")
      }
    }
  }
}
