import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// `v` on a call that carried `amount` and a misspelled `valeu` where the plan expects `value`
/// and `currency`: one table for the call's two violations, the extra parameters in it.
final class ExpectedVsGotTests: XCTestCase {
  /// A plan expecting firebase `purchase` with `value` and `currency`.
  static func shopPlan() throws -> Plan {
    try PlanLoader.load(
      yaml: """
        plan: Shop
        version: 1
        actions:
          purchase:
            providers:
              firebase: {name: purchase, params: [value, currency]}

        """, file: "shop.yaml")
  }

  func testVShowsOneTableWithTheCallsExtraAndMisspelledParameters() throws {
    let plan = try Self.shopPlan()
    let run = PlanTestRun(plan: plan)
    let violations = run.check(
      Record(
        seq: 11, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .userAction, name: "purchase",
        outputs: [
          ProviderOutput(
            provider: "firebase", status: .sent,
            calls: [
              CallDescription(
                method: "logEvent", name: "purchase", parameters: ["amount": 19.99, "valeu": 3])
            ])
        ]))
    XCTAssertEqual(violations.count, 2)
    // As the plan checker gives them to the debugger.
    let comparisons = ExpectationComparison.grouped(violations).map { group in
      Comparison(
        rule: "plan." + violations[group.members[0]].rule.rawValue,
        message: violations[group.members[0]].message,
        expectation: group.comparison,
        others: group.members.dropFirst().map {
          Comparison.Other(rule: "plan." + violations[$0].rule.rawValue, message: violations[$0].message)
        })
    }
    let store = Fixtures.store()
    store.plan.set(summary: "plan Shop v1: 0/1 passed, 1 failing")
    store.plan.set(comparisons, at: 10)
    store.timeline.setPlanViolations(2, at: 10)
    var state = Fixtures.state(store)
    state.type(":11")
    state.apply(.key(.enter))
    state.type("v")
    guard case .comparison(let view) = state.overlay else { return XCTFail("no comparison view") }
    XCTAssertEqual(view.items?.first?.others.count, 1, "the call's second violation shares its table")
    let text = render(state).text
    for (expected, times) in [
      ("✗ firebase purchase · plan.missing-param · plan shop.yaml:6", 1),
      ("has no parameter value, plan line 6 expects it", 1),
      ("has no parameter currency, plan line 6 expects it", 1),
      ("expected (plan)", 1),
      ("✗ param value", 1), ("absent (did you mean valeu?)", 1),
      ("✗ param currency", 1),
      ("  param amount", 1), ("19.99", 1),
      ("  param valeu", 1), ("not planned (value misspelled?)", 1),
    ] {
      XCTAssertEqual(text.components(separatedBy: expected).count - 1, times, "\(expected):\n\(text)")
    }
  }

  /// `v` on a call sent under another name than the plan's: the planned parameters beside the
  /// values the renamed call carried, and one call row naming both calls.
  func testVShowsWhatARenamedCallCarried() throws {
    let plan = try Self.shopPlan()
    let violations = PlanTestRun(plan: plan).check(
      Record(
        seq: 11, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .userAction, name: "purchase",
        outputs: [
          ProviderOutput(
            provider: "firebase", status: .sent,
            calls: [
              CallDescription(
                method: "logEvent", name: "purchase_completed",
                parameters: ["value": 19.99, "currency": "EUR"])
            ])
        ]))
    XCTAssertEqual(violations.map(\.rule), [.wrongName])
    let store = Fixtures.store()
    store.plan.set(summary: "plan Shop v1: 0/1 passed, 1 failing")
    store.plan.set(
      ExpectationComparison.grouped(violations).map { group in
        Comparison(
          rule: "plan." + violations[group.members[0]].rule.rawValue,
          message: violations[group.members[0]].message, expectation: group.comparison)
      }, at: 10)
    store.timeline.setPlanViolations(1, at: 10)
    var state = Fixtures.state(store)
    state.type(":11")
    state.apply(.key(.enter))
    state.type("v")
    let text = render(state).text
    for (expected, times) in [
      ("✗ call ", 1), ("logEvent purchase_completed", 1),
      ("  param value ", 1), ("19.99", 1), ("  param currency ", 1), ("\"EUR\"", 1), ("—", 0),
    ] {
      XCTAssertEqual(text.components(separatedBy: expected).count - 1, times, "\(expected):\n\(text)")
    }
  }
}
