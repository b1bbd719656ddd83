import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeLive

/// What the delivery ledger keeps of a long session: every call counted exactly, the entries of
/// the last settled calls of each device kept for lookup, older settled ones let go of (their
/// entries were kept for the whole session), calls still waiting kept however old.
final class DeliveryLedgerBoundTests: XCTestCase {
  private let start: Int64 = 1_800_000_000_000

  /// 5,000 delivered calls of one device, 100 ms apart: the entries kept are its last
  /// `defaultKeptSettled` and those within two windows of its newest, the counts are exact, and
  /// another device's call queued since the start is still matched at the end.
  func testManySettledCallsKeepABoundedNumberOfEntries() {
    let ledger = DeliveryLedger()
    let count = 5_000
    ledger.observe([call("Late", at: 0, device: "tablet")], firstPosition: 0, received: date(10))
    var position = 1
    for batch in stride(from: 0, to: count, by: 100) {
      var records: [Record] = []
      for index in batch..<batch + 100 {
        let params: Properties = ["n": .int(index)]
        records += [
          call("Tap", params: params, at: Int64(index) * 100),
          wire("Tap", params: params, at: Int64(index) * 100),
        ]
      }
      ledger.observe(records, firstPosition: position, received: date(Int64(batch + 100) * 100))
      position += records.count
    }
    // Two windows of calls 100 ms apart are kept besides the last `defaultKeptSettled`.
    let bound = DeliveryLedger.defaultKeptSettled + Int(2 * DeliveryLedger.defaultWindow * 10) + 1
    let kept = ledger.keptEntries
    XCTAssertLessThanOrEqual(kept.calls, bound + 1, "the tablet's queued call besides")
    XCTAssertLessThanOrEqual(kept.wires, bound)
    let snapshot = ledger.snapshot(now: date(Int64(count) * 100))
    XCTAssertEqual(snapshot.count(.delivered), count, "counted exactly")
    XCTAssertEqual(snapshot.count(.queued), 1)
    XCTAssertEqual(snapshot.total, count + 1)
    XCTAssertEqual(snapshot.entries.count, kept.calls, "the entries kept, the newest last")
    XCTAssertEqual(snapshot.entries.last?.number, count + 1)
    XCTAssertEqual(snapshot.entries.first?.name, "Late")
    XCTAssertEqual(ledger.snapshot(DeliveryFilter(device: "phone")).count(.delivered), count)
    XCTAssertEqual(ledger.snapshot(DeliveryFilter(provider: "braze")).total, 0)
    XCTAssertEqual(ledger.entries(atPosition: 1), [], "let go of: only counted")
    XCTAssertEqual(ledger.entries(atPosition: position - 2).map(\.state), [.delivered])

    ledger.observe(
      [wire("Late", at: 0, source: "segment@tablet")], firstPosition: position, received: date(600_000))
    XCTAssertEqual(ledger.entries(atPosition: 0).map(\.state), [.delivered], "kept while it waited")
    ledger.finish()
    XCTAssertEqual(ledger.snapshot().count(.delivered), count + 1)
  }

  /// Wire calls no call holds (10,000 never answered: automatic events, and a delivered call's
  /// event sent again and again) are bounded like settled calls: each source keeps its last ones,
  /// the side tables (unanswered, message ids) with them, and they are counted exactly.
  func testUnansweredUnexplainedAndDuplicateWireCallsAreBounded() {
    let ledger = DeliveryLedger(keptSettled: 10)
    let count = 5_000
    ledger.observe([call("Once", at: 0)], firstPosition: 0, received: date(10))
    ledger.observe([wire("Once", at: 0)], firstPosition: 1, received: date(20))
    var position = 2
    for batch in stride(from: 0, to: count, by: 100) {
      var records: [Record] = []
      for index in batch..<batch + 100 {
        let at = Int64(index) * 1_000
        records += [wire("Auto", params: ["n": .int(index)], at: at), wire("Once", at: 0)]
      }
      ledger.observe(
        records, firstPosition: position, received: date(Int64(batch + 100) * 1_000), wireAnswered: false)
      position += records.count
    }
    // Two windows of wire calls 1 s apart (two a second) are kept besides the last 10.
    let bound = 10 + 2 * (Int(2 * DeliveryLedger.defaultWindow) + 1)
    let kept = ledger.keptEntries
    XCTAssertLessThanOrEqual(kept.wires, bound + 1, "the delivered call's own besides")
    XCTAssertLessThanOrEqual(kept.sideTables, 2 * bound)
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.unexplainedCount, 2 * count, "counted exactly")
    XCTAssertLessThanOrEqual(snapshot.unexplained.count, bound)
    XCTAssertEqual(snapshot.count(.delivered), 1)
    XCTAssertEqual(ledger.snapshot(DeliveryFilter(provider: "braze")).unexplainedCount, 0)
  }

  /// A small bound, refused and dropped calls: those let go of are counted in their own state.
  func testSettledCallsLetGoOfAreCountedInTheirState() {
    let ledger = DeliveryLedger(keptSettled: 10)
    let dropping = RecordViolation(
      rule: "segment.event-name-length", message: "too long", consequence: "dropped")
    for index in 0..<200 {
      let at = Int64(index) * 1_000
      let params: Properties = ["n": .int(index)]
      ledger.observe(
        [
          call("Tap", params: params, at: at),
          call("Dropped", params: params, at: at, violations: [dropping]),
        ],
        firstPosition: 3 * index, received: date(at + 10))
      ledger.observe(
        [wire("Tap", params: params, at: at)], firstPosition: 3 * index + 2, received: date(at + 20),
        wireAnswered: false)
      ledger.answered(
        wirePosition: 3 * index + 2, status: index.isMultiple(of: 2) ? 200 : 400, at: date(at + 30))
    }
    let snapshot = ledger.snapshot(now: date(300_000))
    XCTAssertEqual(snapshot.count(.delivered), 100)
    XCTAssertEqual(snapshot.count(.refused), 100)
    XCTAssertEqual(snapshot.count(.droppedBySDK), 200)
    XCTAssertLessThanOrEqual(ledger.keptEntries.calls, 10 + 2 * 60 + 1)
    XCTAssertLessThan(snapshot.entries.count, 200)
  }

  /// Calls let go of are counted by their state's place in `allCases`: each state has its own.
  func testEachStateHasItsOwnPlaceAmongTheCounts() {
    XCTAssertEqual(DeliveryState.allCases.map(\.place), Array(DeliveryState.allCases.indices))
  }

  /// 2,000 pairs of identical calls within one window, each with one wire call: ambiguous calls
  /// are bounded like settled ones (their candidate wire calls, reasons and candidate lists let go
  /// of with them) and counted exactly.
  func testAmbiguousCallsAreBounded() {
    let ledger = DeliveryLedger(keptSettled: 10)
    let pairs = 2_000
    var position = 0
    for batch in stride(from: 0, to: pairs, by: 100) {
      var records: [Record] = []
      for index in batch..<batch + 100 {
        let (at, params): (Int64, Properties) = (Int64(index) * 1_000, ["n": .int(index)])
        records += [
          call("Twin", params: params, at: at), call("Twin", params: params, at: at + 100),
          wire("Twin", params: params, at: at + 100),
        ]
      }
      ledger.observe(records, firstPosition: position, received: date(Int64(batch + 100) * 1_000))
      position += records.count
    }
    // Two windows of calls (two a second) are kept besides the last 10, with one wire call a pair.
    let bound = 10 + 2 * (Int(2 * DeliveryLedger.defaultWindow) + 1)
    let kept = ledger.keptEntries
    XCTAssertLessThanOrEqual(kept.calls, bound)
    XCTAssertLessThanOrEqual(kept.wires, bound / 2 + 1)
    XCTAssertLessThanOrEqual(kept.sideTables, 5 * bound)
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.count(.ambiguous), 2 * pairs, "counted exactly")
    XCTAssertEqual(snapshot.total, 2 * pairs)
    XCTAssertEqual(snapshot.unexplainedCount, 0)
    let last = ledger.entries(atPosition: position - 2).first
    XCTAssertEqual(last?.state, .ambiguous)
    XCTAssertEqual(last?.candidates, [position - 1], "a kept call's candidates are kept")
  }

  // MARK: Streams

  private func date(_ milliseconds: Int64) -> Date { Date(recordMilliseconds: start + milliseconds) }

  private func call(
    _ name: String, params: Properties = [:], at milliseconds: Int64, device: String = "phone",
    violations: [RecordViolation] = []
  ) -> Record {
    let output = ProviderOutput(
      provider: "segment", status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: params)], violations: violations)
    return Record(
      seq: 1, time: date(milliseconds), kind: .event, name: name, properties: params, outputs: [output],
      source: device)
  }

  private func wire(
    _ name: String, params: Properties = [:], at milliseconds: Int64, source: String = "segment@phone"
  ) -> Record {
    SegmentStream.wire(name, params: params, at: milliseconds, source: source)
  }
}
