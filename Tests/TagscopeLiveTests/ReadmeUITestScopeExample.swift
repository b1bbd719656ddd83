// swift-format-ignore-file
// The scope example of TagscopeClient's catalog article "Ask tagscope from your UI tests", verbatim (DocExamplesTests'
// DocExampleCoverageTests checks it): compiled here, it skips like the rest of CheckoutTrackingTests unless
// TAGSCOPE_URL names a listen (ScopeAssertionTests runs the same assertions against a real one).

import Foundation
import TagscopeClient
import TagscopeClientTesting
import XCTest

extension CheckoutTrackingTests {
func testCheckoutIsTrackedAsPlanned() async throws {
  try await tagscope.assertScope("checkout") {
    try await tapPay()
    _ = try await tagscope.wait(for: "name:purchase", scope: "checkout")
  }
  try await tagscope.assertChecks(.exactly(1, filter: "name:purchase"), .noUnplanned, scope: "checkout")
}
}
