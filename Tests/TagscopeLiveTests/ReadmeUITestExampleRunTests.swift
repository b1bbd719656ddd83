import Foundation
import TagscopeClient
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 16: the UI-test example of TagscopeClient's catalog itself (`CheckoutTrackingTests`, which the suite otherwise
/// skips without `TAGSCOPE_URL`) run against a real `listen` with a plan: its tap streams the
/// record, its wait returns it, and its assertions (recorded on this test) hold.
final class ReadmeUITestExampleRunTests: XCTestCase {
  func testTheReadmeExampleRunsAgainstARealListen() async throws {
    #if os(Linux)
      let listen = try await QueryAPIHarness.start()
      addTeardownBlock { try? await listen.stop() }
      let url = "http://127.0.0.1:\(listen.server.port)"
      setenv("TAGSCOPE_URL", url, 1)
      defer { unsetenv("TAGSCOPE_URL") }
      let example = CheckoutTrackingTests(name: "testAddingToTheCartIsTracked", testClosure: { _ in })
      try await example.setUp()
      try await example.testAddingToTheCartIsTracked()
      // The example did run: listen holds its tap, and the plan found nothing wrong with it.
      let tagscope = TagscopeClient(baseURL: URL(string: url)!)
      let page = try await tagscope.records(filter: "name:addToCart")
      XCTAssertEqual(page.records.map(\.source), ["Shop@ui-test"])
      let violations = try await tagscope.violations()
      XCTAssertEqual(violations.count, 0)
    #else
      throw XCTSkip("runs an XCTestCase by hand the swift-corelibs-xctest way")
    #endif
  }
}
