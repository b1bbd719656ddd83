import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// A funnel's break is one finding, naming the step expected and the one seen, and the funnel
/// goes on sensibly after it: the audit's cases (issue 47, report 23V gap 1) checked record by
/// record and through `validate`'s line cache.
final class FunnelBreakTests: XCTestCase {
  private func event(_ seq: UInt64, _ name: String, at seconds: Double, session: String = "s1") -> Record {
    journeyAction(seq, name, at: seconds, session: session)
  }

  private func sessionEnd(_ seq: UInt64, at seconds: Double, session: String) -> Record {
    var record = event(seq, "session", at: seconds, session: session)
    record.kind = .sessionEnd
    return record
  }

  private let checkout = """
    plan: J
    actions:
      view:
      add_to_cart:
      purchase:
    funnels:
      checkout:
        steps: [view, add_to_cart, purchase]
        maxGap: 5s
    """

  /// `view, purchase, add_to_cart, purchase`: one `funnel-order` at the first purchase; the late
  /// add_to_cart and the second purchase are not findings.
  func testASwappedPairIsOneFindingNamingTheStepExpectedAndTheOneSeen() throws {
    let plan = try PlanLoader.load(yaml: checkout, file: "f3.yaml")
    let found = try findingsBothWays(
      [
        event(1, "view", at: 1), event(2, "purchase", at: 2), event(3, "add_to_cart", at: 3),
        event(4, "purchase", at: 4),
      ],
      plan: plan)
    XCTAssertEqual(found.map(\.seq), [2])
    XCTAssertEqual(found.map(\.rule), [.funnelOrder])
    XCTAssertEqual(
      found.first?.message,
      "purchase on home: funnel checkout broken: step 3 of 3 (purchase) came before step 2 (add_to_cart); last step "
        + "reached: #1 view at 08:00:01.000Z (plan line 8)")
  }

  /// A drop past `maxGap` is one finding; the attempt's later steps pass until step 1 starts
  /// another, which can be reached. A session started at step 3 is one finding ("no step reached
  /// yet", true there).
  func testADropOrALateStartIsOneFindingAndStepOneStartsAfresh() throws {
    let plan = try PlanLoader.load(yaml: checkout, file: "f4.yaml")
    let records = [
      event(1, "view", at: 1), sessionEnd(2, at: 2, session: "s1"),
      event(3, "view", at: 3, session: "s2"), event(4, "add_to_cart", at: 20, session: "s2"),
      event(5, "purchase", at: 21, session: "s2"), event(6, "purchase", at: 22, session: "s2"),
      event(7, "view", at: 23, session: "s2"), event(8, "add_to_cart", at: 24, session: "s2"),
      event(9, "purchase", at: 25, session: "s2"),
      event(10, "purchase", at: 30, session: "s3"), event(11, "purchase", at: 31, session: "s3"),
    ]
    let found = try findingsBothWays(records, plan: plan)
    XCTAssertEqual(found.map(\.seq), [2, 4, 10])
    XCTAssertEqual(found.map(\.rule), [.funnelDropped, .funnelDropped, .funnelOrder])
    XCTAssertEqual(
      found.last?.message,
      "purchase on home: funnel checkout broken: step 3 of 3 (purchase) came before step 1 (view); no step reached yet "
        + "in session s3 (plan line 8)")
    // #7–#9 reached it: the item counts the reaching beside the breaks.
    let item = try XCTUnwrap(plan.coverageItems.firstIndex { $0.id == "funnel checkout" })
    XCTAssertEqual(
      validate(records, plan: plan).1.coverage.state(at: item),
      .failing(rules: [.funnelDropped, .funnelOrder], broken: 3, records: 4))
  }

  /// One swapped pair in a 10,000-step funnel: one finding, in linear work.
  func testOneSwapInATenThousandStepFunnelIsOneFinding() throws {
    let count = 10_000
    let names = (0..<count).map { "s\($0)" }
    let plan = try PlanLoader.load(
      yaml: "plan: J\nactions:\n" + names.map { "  \($0):\n" }.joined() + "funnels:\n  long:\n    steps: ["
        + names.joined(separator: ", ") + "]\n", file: "f10k.yaml")
    var order = Array(0..<count)
    order.swapAt(4_000, 4_001)
    let records = order.enumerated().map {
      event(UInt64($0.offset + 1), names[$0.element], at: Double($0.offset) / 1000)
    }
    let found = try findingsBothWays(records, plan: plan)
    XCTAssertEqual(found.map(\.seq), [4_001])
    XCTAssertEqual(
      found.first.map { String($0.message.prefix(86)) },
      "s4001 on home: funnel long broken: step 4002 of 10000 (s4001) came before step 4001 (s")
    var validator = PlanValidator(plan: plan)
    for record in records { _ = validator.validate(record) }
    XCTAssertEqual(validator.journeyState.work, count)
    XCTAssertEqual(validator.journeyState.remembered, 0)
  }
}
