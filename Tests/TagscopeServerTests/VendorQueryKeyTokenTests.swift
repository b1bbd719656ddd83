import NIOHTTP1
import TagscopeVendors
import XCTest

@testable import TagscopeServer

/// `--token` accepts the token in the query parameters where the registry says a vendor's SDK
/// sends its key (GA4's `api_secret`), and in no other parameter.
final class VendorQueryKeyTokenTests: XCTestCase {
  func testEveryRegistryQueryKeyCarriesTheToken() throws {
    let check = try XCTUnwrap(TokenCheck("s3cret"))
    let keys = Set(Vendors.endpoints.flatMap(\.shape.queryKeys))
    XCTAssertEqual(keys, ["api_secret"])
    for key in keys {
      XCTAssertTrue(check.authorizes(headers: HTTPHeaders(), query: [(key, "s3cret")]), key)
      XCTAssertFalse(check.authorizes(headers: HTTPHeaders(), query: [(key, "other")]), key)
    }
    XCTAssertFalse(check.authorizes(headers: HTTPHeaders(), query: [("measurement_id", "s3cret")]))
  }
}
