import Foundation
import XCTest

/// swift-protobuf decodes Firebase's own uploads in TagscopeServer (`FirebaseWire`): the debugger
/// links it, an app never does (the hub, a provider, the plan tests, the inspector).
final class ProtobufLinkTests: XCTestCase {
  func testOnlyTheServerSideLinksSwiftProtobuf() throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "package-graph-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let manifest = try PackageManifest.load(root: root, scratch: scratch)
    let protobuf = { (products: [String]) in
      manifest.closure(ofProducts: products).externalProducts.filter { $0.hasPrefix("swift-protobuf") }
    }
    XCTAssertEqual(protobuf(["AnalyticsHub", "FirebaseProvider", "TaggingPlanTesting"]), [])
    XCTAssertEqual(protobuf(["TagscopeInspector"]), [])
    XCTAssertEqual(protobuf(["AnalyticsProviders", "TaggingPlan"]), [])
    XCTAssertFalse(protobuf(["tagscope"]).isEmpty, "the debugger decodes Firebase's uploads")
  }
}
