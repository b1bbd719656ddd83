import TagscopeVendors
import XCTest

/// Every vendor decoded from its SDK says, as data, where its messages name their user and
/// device (the decoders read these paths; `VendorIdentityPathTests` checks they do).
final class VendorIdentityRegistryTests: XCTestCase {
  func testEverySDKVendorDeclaresItsUserAndDevicePaths() {
    for vendor in Vendors.all {
      let id = vendor.id.rawValue
      guard vendor.paths.contains(.sdk) else {
        XCTAssertTrue(vendor.identity.isEmpty, "\(id) has identity fields but no SDK path")
        continue
      }
      XCTAssertFalse(
        vendor.identity.isEmpty, "\(id) is decoded from its SDK but says not where its sender is")
      XCTAssertEqual(
        Set(vendor.identity.map(\.form)).count, vendor.identity.count, "\(id) names a form of message twice")
      for fields in vendor.identity {
        let place = "\(id) \(fields.form)"
        XCTAssertFalse(fields.root.isEmpty, "\(place): no root")
        // An SDK that names neither (PayPal's FPTI events) says so where its paths start from.
        let namesNone = fields.root.contains("name no user and no device")
        XCTAssertFalse(fields.user.isEmpty && !namesNone, "\(place): no user path")
        XCTAssertFalse(fields.device.isEmpty && !namesNone, "\(place): no device path")
        XCTAssertFalse(
          namesNone && (fields.session + fields.app + fields.model).isEmpty,
          "\(place): names no sender at all")
        let paths =
          fields.user + fields.device + fields.anonymous + fields.previous + fields.session + fields.app
          + fields.platform + fields.model
        for path in paths {
          XCTAssertFalse(
            path.split(separator: ".", omittingEmptySubsequences: false).contains(""), "\(place): \(path)")
        }
      }
    }
  }
}
