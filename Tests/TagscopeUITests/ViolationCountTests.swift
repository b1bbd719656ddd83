import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// The Events list counts a hub rule finding and the plan's report of it once.
final class ViolationCountTests: XCTestCase {
  private func summary(ruleViolations: Bool, plan: Int) -> RecordSummary {
    RecordSummary(
      index: 0, seq: 1, timeMilliseconds: 0, kind: .userAction, name: "play", source: nil, outputs: [],
      hasRuleViolations: ruleViolations, hasIssues: false, planViolations: plan)
  }

  func testAHubFindingAndThePlansReportOfItCountOnce() {
    // wrong-name plus the plan's provider-rule report of the hub's finding: 2, not 3.
    XCTAssertEqual(summary(ruleViolations: true, plan: 2).violationCount, 2)
    // No plan (or not checked yet): the hub's finding alone.
    XCTAssertEqual(summary(ruleViolations: true, plan: 0).violationCount, 1)
    XCTAssertEqual(summary(ruleViolations: false, plan: 3).violationCount, 3)
    XCTAssertEqual(summary(ruleViolations: false, plan: 0).violationCount, 0)
  }
}
