import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// Issue 47's journey rules on hand-made recordings with known answers: `after`, `once`,
/// `duplicateWithin` and funnels, each passing and failing, each finding naming both records.
final class JourneyRuleTests: XCTestCase {
  static let start: Int64 = 1_800_000_000_000

  /// A record of `name` at `millis` after the start, in `session` of `source`.
  private func event(
    _ seq: UInt64, _ name: String, at millis: Int64, _ properties: Properties = [:], session: String? = "s-1",
    source: String? = nil, kind: RecordKind = .userAction, screen: String? = nil
  ) -> Record {
    var record = Record(
      seq: seq, time: Date(timeIntervalSince1970: Double(Self.start + millis) / 1000), kind: kind, name: name,
      properties: properties,
      context: RecordContext(
        screen: screen, history: screen.map { [$0] } ?? [],
        session: session.map { RecordSession(id: $0, state: "unauthenticated", user: nil, properties: [:]) }))
    record.source = source
    return record
  }

  private func load(_ yaml: String) throws -> Plan { try PlanLoader.load(yaml: yaml, file: "j.yaml") }

  func testAfterNeedsOneOfItsTagsEarlierInTheSameSessionOfTheSameDevice() throws {
    let plan = try load(
      """
      plan: J
      actions:
        checkout_started:
        purchase:
          after: [checkout_started]
      """)
    let (violations, validator) = validate(
      [
        event(1, "checkout_started", at: 0),
        event(2, "purchase", at: 1_000),
        event(3, "purchase", at: 2_000, session: "s-2"),
        event(4, "purchase", at: 3_000, source: "other device"),
      ], plan: plan)
    XCTAssertEqual(violations.map(\.seq), [3, 4])
    XCTAssertEqual(violations.map(\.rule), [.outOfOrder, .outOfOrder])
    XCTAssertEqual(
      violations[0].message,
      "purchase: purchase came with no checkout_started before it in session s-2; the latest, "
        + "#1 checkout_started at 08:00:00.000Z, was in another session (plan line 5)")
    XCTAssertEqual(violations[0].planLine, 5)
    let rows = violations[0].comparison.rows
    XCTAssertEqual(rows.map(\.field), ["after: [checkout_started]", "this record", "needed"])
    XCTAssertEqual(rows[1].actual, "#3 purchase at 08:00:02.000Z")
    XCTAssertEqual(rows[2].actual, "#1 checkout_started at 08:00:00.000Z")
    XCTAssertEqual(violations[1].comparison.rows[2].actual, "none on this device")
    // The entry's own coverage item fails with the rule.
    let item = try XCTUnwrap(plan.coverageItems.firstIndex { $0.id == "action purchase" })
    XCTAssertEqual(validator.coverage.state(at: item), .failing(rules: [.outOfOrder], broken: 2, records: 3))
  }

  func testOnceCountsInItsSessionScreenVisitOrAppLaunch() throws {
    let plan = try load(
      """
      plan: J
      screens:
        cart:
      actions:
        perSession: {once: session}
        perScreen: {once: screen}
        perLaunch: {once: app-launch}
      """)
    let records = [
      event(1, "cart", at: 0, kind: .screen),
      event(2, "perSession", at: 10), event(3, "perScreen", at: 20), event(4, "perLaunch", at: 30),
      event(5, "perSession", at: 40),  // repeated: same session
      event(6, "perScreen", at: 50),  // repeated: same screen visit
      event(7, "cart", at: 60, kind: .screen),
      event(8, "perScreen", at: 70),  // a new visit: fine
      event(9, "perSession", at: 80, session: "s-2"),  // a new session: fine
      event(10, "perLaunch", at: 90, session: "s-2"),  // repeated: same launch
    ]
    let violations = validate(records, plan: plan).0
    XCTAssertEqual(violations.map(\.seq), [5, 6, 10])
    XCTAssertEqual(Set(violations.map(\.rule)), [.repeated])
    XCTAssertEqual(
      violations[0].message,
      "perSession: perSession sent again in the same session; first sent as #2 perSession at "
        + "08:00:00.010Z (plan line 5)")
    XCTAssertEqual(violations[2].comparison.rows.last?.actual, "#4 perLaunch at 08:00:00.030Z")
    // A new recording is a new app launch.
    var validator = PlanValidator(plan: plan)
    _ = validator.validate(records[3])
    validator.startRecording()
    XCTAssertEqual(validator.validate(records[9]), [])
  }

  func testDuplicateWithinIsTheSameTagAndPropertiesInsideTheWindow() throws {
    let plan = try load(
      """
      plan: J
      actions:
        addFavorite:
          duplicateWithin: 500ms
      """)
    let violations = validate(
      [
        event(1, "addFavorite", at: 0, ["id": "p1"]),
        event(2, "addFavorite", at: 120, ["id": "p1"]),  // double-fire of #1
        event(3, "addFavorite", at: 200, ["id": "p2"]),  // other properties
        event(4, "addFavorite", at: 900, ["id": "p1"]),  // 780ms after #2
        event(5, "addFavorite", at: 950, ["id": "p1"], source: "tablet"),  // another device
      ], plan: plan
    ).0
    XCTAssertEqual(violations.map(\.seq), [2])
    XCTAssertEqual(violations.first?.rule, .duplicate)
    XCTAssertEqual(
      violations.first?.message,
      "addFavorite: addFavorite sent twice within 500ms with the same properties: duplicates #1 addFavorite "
        + "at 08:00:00.000Z, 120ms earlier (plan line 4)")
    XCTAssertEqual(violations.first?.comparison.rows.last?.field, "duplicates")
  }

  func testAFunnelIsReachedDroppedAtAStepOrBrokenPerSession() throws {
    let plan = try load(
      """
      plan: J
      actions:
        cart:
        checkout:
        pay:
      funnels:
        buy:
          steps: [cart, checkout, pay]
          maxGap: 10m
      """)
    let minute: Int64 = 60_000
    let records = [
      // s-1 reaches it.
      event(1, "cart", at: 0), event(2, "checkout", at: minute), event(3, "pay", at: 2 * minute),
      // s-2 stops after step 2: dropped at step 3 when the session ends.
      event(4, "cart", at: 3 * minute, session: "s-2"), event(5, "checkout", at: 4 * minute, session: "s-2"),
      event(6, "sessionEnd", at: 5 * minute, session: "s-2", kind: .sessionEnd),
      // s-3: step 3 before step 2.
      event(7, "cart", at: 6 * minute, session: "s-3"), event(8, "pay", at: 7 * minute, session: "s-3"),
      // s-4: step 2 eleven minutes after step 1.
      event(9, "cart", at: 8 * minute, session: "s-4"),
      event(10, "checkout", at: 19 * minute, session: "s-4"),
    ]
    let (violations, validator) = validate(records, plan: plan)
    XCTAssertEqual(violations.map(\.seq), [6, 8, 10])
    XCTAssertEqual(violations.map(\.rule), [.funnelDropped, .funnelOrder, .funnelDropped])
    XCTAssertEqual(
      violations.map(\.message),
      [
        "sessionEnd: funnel buy dropped at step 3 of 3 (pay): session s-2 ended after step 2, #5 checkout at "
          + "08:04:00.000Z (plan line 8)",
        "pay: funnel buy broken: step 3 of 3 (pay) came before step 2 (checkout); last step reached: #7 cart "
          + "at 08:06:00.000Z (plan line 8)",
        "checkout: funnel buy dropped at step 2 of 3 (checkout): it came 11m after step 1, #9 cart at "
          + "08:08:00.000Z, over maxGap 10m (plan line 8)",
      ])
    XCTAssertEqual(violations[0].comparison.rows.map(\.actual).last, "#5 checkout at 08:04:00.000Z")
    let item = try XCTUnwrap(plan.coverageItems.firstIndex { $0.id == "funnel buy" })
    XCTAssertEqual(plan.coverageItems[item].sectionKey, "funnels")
    XCTAssertEqual(
      validator.coverage.state(at: item),
      .failing(rules: [.funnelDropped, .funnelOrder], broken: 3, records: 4))
    // Reached alone: passed.
    let reached = validate(Array(records[0..<3]), plan: plan).1
    XCTAssertEqual(reached.coverage.state(at: item), .passed)
    XCTAssertEqual(PlanValidator(plan: plan).coverage.state(at: item), .notSeen)
  }

  func testJourneyKeysAreCheckedAtLoadWithTheirPlace() {
    let cases: [(String, String)] = [
      (
        "plan: J\nactions:\n  a: {after: [b]}\n",
        "j.yaml:3:7: after of action a names 'b', which is not a planned tag"
      ),
      (
        "plan: J\nactions:\n  a: {once: day}\n",
        "j.yaml:3:13: once of action a must be one of session, screen, app-launch, found \"day\""
      ),
      (
        "plan: J\nactions:\n  a: {duplicateWithin: soon}\n",
        "j.yaml:3:24: duplicateWithin of action a must be a duration such as 500ms, 2s, 10m or 1h, found \"soon\""
      ),
      (
        "plan: J\nactions:\n  a:\nfunnels:\n  f: {steps: [a, c]}\n",
        "j.yaml:5:18: a step of funnel f names 'c', which is not a planned tag"
      ),
      ("plan: J\nactions:\n  a:\nfunnels:\n  f: {maxGap: 1m}\n", "j.yaml:5:3: funnel f has no steps"),
    ]
    for (yaml, expected) in cases {
      XCTAssertThrowsError(try load(yaml), expected) { error in
        XCTAssertEqual("\(error)", expected)
      }
    }
  }

  /// A funnel of 10,000 steps (distinct tags, or one tag 10,000 times) walked to the end: one
  /// step check per record, and nothing remembered once reached.
  func testATenThousandStepFunnelIsCheckedInLinearWork() throws {
    let count = 10_000
    let names = (0..<count).map { "s\($0)" }
    let distinct = try load(
      "plan: J\nactions:\n" + names.map { "  \($0):\n" }.joined() + "funnels:\n  long:\n    steps: ["
        + names.joined(separator: ", ") + "]\n")
    let repeated = try load(
      "plan: J\nactions:\n  tick:\nfunnels:\n  long:\n    steps: ["
        + [String](repeating: "tick", count: count).joined(separator: ", ") + "]\n")
    for (plan, name) in [(distinct, { (step: Int) in names[step] }), (repeated, { (_: Int) in "tick" })] {
      var validator = PlanValidator(plan: plan)
      var found = 0
      for step in 0..<count {
        found += validator.validate(event(UInt64(step + 1), name(step), at: Int64(step))).count
      }
      XCTAssertEqual(found, 0)
      XCTAssertEqual(validator.journeyState.work, count)
      XCTAssertEqual(validator.journeyState.remembered, 0)
      let item = try XCTUnwrap(plan.coverageItems.firstIndex { $0.id == "funnel long" })
      XCTAssertEqual(validator.coverage.state(at: item), .passed)
    }
  }

  /// 1,000,000 identical records within one window: each a duplicate of the one before, one
  /// check each, one record remembered.
  func testAMillionIdenticalRecordsKeepOneRecordInTheDuplicateWindow() throws {
    let plan = try load("plan: J\nactions:\n  tap: {duplicateWithin: 500ms}\n")
    var validator = PlanValidator(plan: plan)
    var record = event(0, "tap", at: 0, ["id": "p1"])
    var duplicates = 0
    var maxRemembered = 0
    for seq in 1...1_000_000 {
      record.seq = UInt64(seq)
      duplicates += validator.validate(record).count
      if seq % 100_000 == 0 { maxRemembered = max(maxRemembered, validator.journeyState.remembered) }
    }
    XCTAssertEqual(duplicates, 999_999)
    XCTAssertEqual(validator.journeyState.work, 1_000_000)
    XCTAssertEqual(maxRemembered, 1)
  }

  /// Many devices and sessions: closed sessions are forgotten, devices past the limit too.
  func testClosedSessionsAndOldDevicesAreForgotten() throws {
    let plan = try load(
      "plan: J\nactions:\n  a: {once: session}\n  b:\nfunnels:\n  f: {steps: [a, b]}\n")
    var validator = PlanValidator(plan: plan)
    for number in 0..<20_000 {
      _ = validator.validate(
        event(UInt64(number), "a", at: Int64(number), session: "s\(number)", source: "d\(number % 5_000)"))
    }
    XCTAssertLessThanOrEqual(validator.journeyState.deviceCount, 4_096)
    XCTAssertLessThanOrEqual(validator.journeyState.remembered, 2 * 4_096)
  }
}
