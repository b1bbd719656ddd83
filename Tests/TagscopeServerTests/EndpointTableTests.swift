import XCTest

@testable import TagscopeServer

/// The router serves exactly the paths of its table (which `tagscope help listen` prints): each
/// routes a POST to an SDK endpoint, and the table has no path twice.
final class EndpointTableTests: XCTestCase {
  func testEveryListedPathRoutesToAnEndpoint() {
    let paths = ListenEndpoints.eventPaths.map { $0.path.replacingOccurrences(of: "KEY", with: "us1-abc") }
    XCTAssertEqual(Set(paths).count, paths.count, "a path listed twice")
    XCTAssertGreaterThan(paths.count, 30)
    for path in paths {
      guard case .endpoint = EndpointRouter.route(method: .POST, path: path) else {
        XCTFail("\(path) is listed but not routed")
        continue
      }
    }
    guard case .notFound = EndpointRouter.route(method: .POST, path: "/v9/nothing") else {
      return XCTFail("an unlisted path routed")
    }
  }
}
