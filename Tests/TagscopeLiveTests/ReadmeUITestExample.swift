// swift-format-ignore-file
// The Swift example of TagscopeClient's catalog article "Ask tagscope from your UI tests", verbatim (DocExamplesTests'
// DocExampleCoverageTests checks it). It skips unless TAGSCOPE_URL names a listen (ReadmeUITestExampleRunTests
// runs it against a real one); `tapAddToCart`
// is in ReadmeUITestSupport.swift.

import Foundation
import TagscopeClient
import XCTest

final class CheckoutTrackingTests: XCTestCase {
  var tagscope = TagscopeClient()

  override func setUp() async throws {
    // Where `tagscope listen` runs (CI exports it); without one, the tagging checks are skipped.
    guard let url = ProcessInfo.processInfo.environment["TAGSCOPE_URL"] else {
      throw XCTSkip("no tagscope listen: set TAGSCOPE_URL")
    }
    tagscope = TagscopeClient(baseURL: URL(string: url)!)
    try await tagscope.reset()  // each test counts from nothing
  }

  func testAddingToTheCartIsTracked() async throws {
    try await tapAddToCart()  // XCUIApplication().buttons["Add to cart"].tap() in the app's UI test
    let sent = try await tagscope.wait(for: "kind:action name:addToCart", count: 1, timeout: .seconds(5))
    XCTAssertEqual(sent.first?.properties?["sku"], .string("A-1"))
    let broken = try await tagscope.violations()  // with listen --plan
    XCTAssertTrue(broken.isEmpty, broken.map(\.message).joined(separator: "\n"))
  }
}
