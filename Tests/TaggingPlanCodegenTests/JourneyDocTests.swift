import Foundation
import TaggingPlan
import XCTest

@testable import TaggingPlanCodegen

/// An entry's journey rules are one line each in its generated case's doc comment.
final class JourneyDocTests: XCTestCase {
  func testEachJourneyRuleIsOneDocLineOfItsCase() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: Shop
        actions:
          start: {once: session}
          buy:
            after: [start]
            duplicateWithin: 500ms
        funnels:
          checkout: {steps: [start, buy], maxGap: 10m}
        """, file: "shop.yaml")
    let options = PlanCodegen.Options(moduleName: "Shop", includesTour: false, toolVersion: "0.0.0-test")
    let taxonomy = try XCTUnwrap(PlanCodegen(plan: plan, options: options).files().first).text
    for line in [
      "/// Sent at most once per session.",
      "/// Step 1 of 2 of funnel checkout.",
      "/// Must follow start in the same session.",
      "/// Not repeated with the same properties within 500ms.",
      "/// Step 2 of 2 of funnel checkout (within 10m of step 1).",
    ] {
      XCTAssertTrue(taxonomy.contains(line), "\(line) missing from\n\(taxonomy)")
    }
  }
}
