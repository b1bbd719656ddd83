import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// `v` on a record whose firebase call carries a phone number under `email`, which the plan
/// allows only emails: the finding's kind, place and length (never the value) beside what the
/// plan allows there, under a heading that says so.
final class PersonalDataComparisonTests: XCTestCase {
  func testVShowsThePersonalDataMaskedBesideWhatThePlanAllows() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: Shop
        version: 1
        actions:
          signUp:
            properties:
              email: {type: string, pii: [email]}
            providers:
              firebase: {name: sign_up}

        """, file: "shop.yaml")
    let run = PlanTestRun(plan: plan)
    let violations = run.check(
      Record(
        seq: 11, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .userAction, name: "signUp",
        outputs: [
          ProviderOutput(
            provider: "firebase", status: .sent,
            calls: [
              CallDescription(method: "logEvent", name: "sign_up", parameters: ["email": "+33 6 12 34 56 78"])
            ])
        ]))
    XCTAssertEqual(violations.map(\.rule), [.personalData])
    // As the plan checker gives them to the debugger.
    let comparisons = ExpectationComparison.grouped(violations).map { group in
      Comparison(
        rule: "plan." + violations[group.members[0]].rule.rawValue,
        message: violations[group.members[0]].message, expectation: group.comparison)
    }
    let store = Fixtures.store()
    store.plan.set(summary: "plan Shop v1: 0/2 passed, 1 failing")
    store.plan.set(comparisons, at: 10)
    store.timeline.setPlanViolations(1, at: 10)
    var state = Fixtures.state(store)
    state.type(":11")
    state.apply(.key(.enter))
    state.type("v")
    guard case .comparison = state.overlay else { return XCTFail("no comparison view") }
    let text = render(state).text
    for expected in [
      "✗ firebase logEvent sign_up param email · plan.personal-data · plan shop.yaml:6",
      "allowed (plan pii)", "got (record)", "✗ param email", "pii: [email]",
      "personal data: phone at email, value masked (17",
    ] {
      XCTAssertTrue(text.contains(expected), "lacks \(expected):\n\(text)")
    }
    // Only the fixture record's own firebase rule is a provider rule.
    XCTAssertEqual(text.components(separatedBy: "expected (provider rule)").count - 1, 1, text)
    XCTAssertFalse(text.contains("12 34 56"), text)
    assertGolden(text, "expected-vs-got-personal-data-140x40")
  }
}
