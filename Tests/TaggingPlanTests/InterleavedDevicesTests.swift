import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// Issue 47's journey and consent checks keep each device's state apart when the records of two
/// devices alternate (the latest device's state is kept out of the per-device table, so every
/// record here switches device): each device's sessions, screen visits, funnels, `once` and
/// consent are its own.
final class InterleavedDevicesTests: XCTestCase {
  static let start: Int64 = 1_800_000_000_000

  /// A record of `name` from device `source` in `session`, with one output per provider.
  private func record(
    _ seq: UInt64, _ name: String, source: String, session: String = "s-1", user: String? = nil,
    kind: RecordKind = .userAction, outputs: [(String, OutputStatus)] = [], properties: Properties = [:],
    wire: Bool = false
  ) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: Double(Self.start + Int64(seq) * 1_000) / 1000), kind: kind,
      name: name, properties: properties,
      context: RecordContext(
        session: RecordSession(
          id: session, state: user == nil ? "unauthenticated" : "authenticated", user: user, properties: [:])),
      outputs: outputs.map { provider, status in
        ProviderOutput(
          provider: provider, status: status,
          calls: status == .sent ? [CallDescription(method: "logEvent")] : [])
      }, source: source, raw: wire ? "" : nil)
  }

  func testJourneyStateStaysWithItsDeviceWhenTwoDevicesAlternate() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: J
        screens:
          home:
        actions:
          cart:
          pay:
            after: [cart]
          like: {once: screen}
          noise:
        funnels:
          buy: {steps: [cart, pay]}
        """, file: "j.yaml")
    let records = [
      record(1, "cart", source: "a", session: "a-1"),
      record(2, "pay", source: "b", session: "b-1"),  // no cart on b: out of order, funnel broken
      record(3, "pay", source: "a", session: "a-1"),  // a's cart: fine, funnel reached
      record(4, "cart", source: "b", session: "b-1"),
      record(5, "home", source: "a", session: "a-1", kind: .screen),
      record(6, "like", source: "b", session: "b-1"),
      record(7, "like", source: "a", session: "a-1"),
      record(8, "home", source: "b", session: "b-1", kind: .screen),
      record(9, "like", source: "a", session: "a-1"),  // a's same screen visit: repeated
      record(10, "like", source: "b", session: "b-1"),  // b's new visit: fine
      record(11, "noise", source: "a", session: "a-2"),  // a's session ends with no funnel open
      record(12, "noise", source: "b", session: "b-2"),  // b's ends after step 1: dropped
      record(13, "cart", source: "a", session: "a-2"),
      record(14, "noise", source: "b", session: "b-2"),
    ]
    let (violations, validator) = validate(records, plan: plan)
    XCTAssertEqual(violations.map(\.seq), [2, 2, 9, 12])
    XCTAssertEqual(violations.map(\.rule), [.outOfOrder, .funnelOrder, .repeated, .funnelDropped])
    XCTAssertEqual(
      violations.last?.message,
      "noise: funnel buy dropped at step 2 of 2 (pay): session b-1 ended after step 1, #4 cart at "
        + "08:00:04.000Z (plan line 11)")
    let funnel = try XCTUnwrap(plan.coverageItems.firstIndex { $0.id == "funnel buy" })
    XCTAssertEqual(
      validator.coverage.state(at: funnel),
      .failing(rules: [.funnelDropped, .funnelOrder], broken: 2, records: 3))
    XCTAssertEqual(validator.unfinishedFunnels.map(\.last.seq), [13])
    XCTAssertEqual(validator.unfinishedFunnels.map(\.last.source), ["a"])
    XCTAssertEqual(validator.journeyState.deviceCount, 2)
  }

  func testConsentStaysWithItsDeviceWhenTwoDevicesAlternate() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: C
        consent:
          default: granted
          categories:
            analytics: [firebase, segment]
        actions:
          play:
        """, file: "c.yaml")
    func play(_ seq: UInt64, _ source: String, _ user: String, wire: Bool = false) -> Record {
      record(
        seq, "play", source: source, user: user, outputs: [(wire ? "segment" : "firebase", .sent)], wire: wire
      )
    }
    func consent(_ seq: UInt64, _ source: String, _ user: String, granted: Bool) -> Record {
      record(
        seq, "consent", source: source, user: user, kind: .consent,
        properties: ["scope": .string("category:analytics"), "granted": .bool(granted)])
    }
    let records = [
      play(1, "app-1", "u-1"), play(2, "app-2", "u-2"),
      consent(3, "app-1", "u-1", granted: false),
      play(4, "app-2", "u-2"),  // app-2 still consents
      play(5, "app-1", "u-1"),  // withdrawn on app-1
      play(6, "seg-1", "u-2", wire: true),  // joins app-2 by its user: fine
      play(7, "seg-2", "u-1", wire: true),  // joins app-1: withdrawn
      consent(8, "app-2", "u-2", granted: false),
      consent(9, "app-1", "u-1", granted: true),
      play(10, "app-1", "u-1"),  // regranted on app-1
      play(11, "app-2", "u-2"),  // withdrawn on app-2 by #8
    ]
    let found = validate(records, plan: plan).0.filter { $0.rule == .consentWithdrawn }
    XCTAssertEqual(found.map(\.seq), [5, 7, 11])
    XCTAssertEqual(found.map(\.provider), ["firebase", "segment", "firebase"])
    XCTAssertEqual(
      found.map { $0.comparison.rows.last?.actual },
      ["#3 consent at 08:00:03.000Z", "#3 consent at 08:00:03.000Z", "#8 consent at 08:00:08.000Z"])
  }

  /// A line cache keeps a record as the sequence checks read it (`sequenceFields`): run on it
  /// after the full record's own checks, they find what a full validation finds.
  func testTheSequenceChecksFindTheSameOnTheFieldsALineCacheKeeps() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: S
        consent:
          default: granted
          categories:
            analytics: [firebase]
        actions:
          cart: {duplicateWithin: 5s}
          pay:
            after: [cart]
        funnels:
          buy: {steps: [cart, pay]}
        """, file: "s.yaml")
    func call(_ seq: UInt64, _ name: String, session: String = "s-1", _ properties: Properties = [:])
      -> Record
    {
      var made = record(seq, name, source: "a", session: session, user: "u-1", properties: properties)
      made.context.history = ["home", "cart"]
      made.outputs = [
        ProviderOutput(
          provider: "firebase", status: .sent,
          calls: [
            CallDescription(method: "logEvent", name: name, parameters: ["id": .string("p\(seq)")]),
            CallDescription(method: "setUserProperty", name: "tier", parameters: ["value": .int(2)]),
          ])
      ]
      return made
    }
    let records = [
      call(1, "cart", ["id": "p1"]), call(2, "cart", ["id": "p1"]), call(3, "pay", session: "s-2"),
      record(
        4, "consent", source: "a", session: "s-2", user: "u-1", kind: .consent,
        properties: ["scope": .string("category:analytics"), "granted": .bool(false)]),
      call(5, "cart", session: "s-2"),
    ]
    var full = PlanValidator(plan: plan)
    var kept = PlanValidator(plan: plan)
    var expected: [PlanViolation] = []
    var found: [PlanViolation] = []
    for record in records {
      expected += full.validate(record)
      var marks: [CoverageMark] = []
      var own = kept.checkOwn(record, marks: &marks)
      kept.complete(record.sequenceFields, marks: &marks, violations: &own)
      found += own
    }
    XCTAssertEqual(
      Set(expected.map(\.rule)), [.duplicate, .outOfOrder, .funnelOrder, .funnelDropped, .consentWithdrawn])
    XCTAssertEqual(found, expected)
    XCTAssertEqual(kept.coverage, full.coverage)
    XCTAssertLessThan(records[0].sequenceFields.context.history.count, records[0].context.history.count)
    XCTAssertEqual(records[0].sequenceFields.outputs.first?.calls.count, 1)
  }
}
