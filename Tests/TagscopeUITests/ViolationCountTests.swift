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

  /// Without a plan, a record with several hub findings counts them all, as its Providers pane
  /// does: the index keeps how many (up to 7), not only a flag.
  func testWithoutAPlanEveryHubFindingIsCounted() {
    func violation(_ rule: String) -> RecordViolation {
      RecordViolation(rule: rule, message: "\(rule) broken", consequence: "dropped", callIndex: 0)
    }
    let broken = Fixtures.record(
      1, 0, .event, "purchase", [:], Fixtures.context(["cart"]),
      [
        Fixtures.firebase("purchase", ["value": 1], violations: [violation("a"), violation("b")]),
        ProviderOutput(provider: "braze", status: .sent, violations: [violation("c")]),
      ])
    let many = Fixtures.record(
      2, 1, .event, "flood", [:], Fixtures.context(["cart"]),
      [Fixtures.firebase("flood", [:], violations: (0..<9).map { violation("r\($0)") })])
    var state = Fixtures.state(Fixtures.store([broken, many]))
    state.apply(.key(.character("g")))
    XCTAssertEqual(state.state.rows.values.sorted { $0.index < $1.index }.map(\.violationCount), [3, 7])
    XCTAssertTrue(
      render(state).text.contains("purchase") && render(state).text.contains(" ✗3"), render(state).text)
  }
}
