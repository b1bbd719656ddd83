import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeLive

/// An app's in-app stream that reaches the ledger after its SDK's wire calls (the inspector
/// connected late): the wire calls no call explained yet are bounded per source, and those let go
/// of before their calls arrived are said, by source, in the summary and in each call's reason,
/// never taken silently for unexplained wire calls and unsent calls.
final class DeliveryLateStreamTests: XCTestCase {

  /// 100 wire calls a second apart, then their 100 calls: each source keeps its last 10 (the
  /// bound here) and those within two windows of its newest (39 s … 99 s); the 39 before are let
  /// go of. Their calls stay queued, then lost, each saying its wire call may be one of them; the
  /// summary counts them by source; the others are delivered.
  func testWireCallsLetGoOfBeforeTheirCallsArriveAreSaid() {
    let ledger = DeliveryLedger(keptSettled: 10)
    let count = 100
    let wires = (0..<count).map { wire("Tap", params: ["n": .int($0)], at: Int64($0) * 1_000) }
    ledger.observe(wires, firstPosition: 0, received: date(100_000))
    let calls = (0..<count).map { call("Tap", params: ["n": .int($0)], at: Int64($0) * 1_000) }
    ledger.observe(calls, firstPosition: count, received: date(100_500))

    var snapshot = ledger.snapshot(now: date(101_000))
    XCTAssertEqual(snapshot.count(.delivered), 61, "the wire calls of 39 s … 99 s were kept")
    XCTAssertEqual(snapshot.count(.queued), 39)
    XCTAssertEqual(snapshot.letGoUnexplained, ["segment@phone": 39], "said, by source")
    XCTAssertEqual(snapshot.unexplainedCount, 39)
    let line = HeadlessPrinter.deliveryLine(snapshot) ?? ""
    XCTAssertTrue(
      line.hasSuffix(
        "39 wire calls no in-app call explains (39 let go of before an in-app call came for them: segment@phone 39)"
      ),
      line)
    let first = ledger.entries(atPosition: count).first
    XCTAssertEqual(first?.state, .queued)
    XCTAssertEqual(
      first?.reason,
      "its wire call may be one of 39 wire calls of segment@phone let go of unexplained before it arrived")
    XCTAssertNil(ledger.entries(atPosition: count + 39).first?.reason, "delivered: no note")

    ledger.finish()
    snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.count(.lost), 39)
    XCTAssertEqual(
      ledger.entries(atPosition: count + 38).first?.reason,
      "its wire call may be one of 39 wire calls of segment@phone let go of unexplained before it arrived",
      "not 'the session ended before it was sent': it may have been")
  }

  /// A call later than every wire call let go of by more than the window gets no note (it could
  /// be none of them), nor does a call of another name or provider; one whose wire call comes
  /// after all loses its note when matched.
  func testOnlyCallsThatCouldBeALetGoWireCallGetTheNote() {
    let ledger = DeliveryLedger(keptSettled: 2)
    let wires = (0..<10).map { wire("Tap", params: ["n": .int($0)], at: Int64($0) * 20_000) }
    ledger.observe(wires, firstPosition: 0, received: date(200_000))
    // Let go of: those before 180 s − 60 s, the newest at 100 s.
    XCTAssertEqual(ledger.snapshot().letGoUnexplained, ["segment@phone": 6])
    ledger.observe(
      [
        call("Tap", params: ["late": true], at: 100_000 + 30_000),
        call("Tap", params: ["late": false], at: 100_000 + 30_001),
        call("Other", params: ["late": true], at: 50_000),
        call("Tap", params: ["late": true], at: 50_000, provider: "braze"),
      ], firstPosition: 10, received: date(200_100))
    XCTAssertNotNil(ledger.entries(atPosition: 10).first?.reason, "within the window of the newest let go of")
    XCTAssertNil(
      ledger.entries(atPosition: 11).first?.reason, "later than all of them by more than the window")
    XCTAssertNil(ledger.entries(atPosition: 12).first?.reason, "another name's")
    XCTAssertEqual(
      ledger.entries(atPosition: 13).first?.reason, "no wire source for braze", "another provider's")
    XCTAssertEqual(ledger.snapshot(DeliveryFilter(provider: "braze")).letGoUnexplained, [:])
    ledger.observe(
      [wire("Tap", params: ["late": true], at: 130_000)], firstPosition: 14, received: date(200_200))
    let matched = ledger.entries(atPosition: 10).first
    XCTAssertEqual(matched?.state, .delivered)
    XCTAssertNil(matched?.reason, "its wire call came: the note no longer holds")
  }

  private func date(_ milliseconds: Int64) -> Date { SegmentStream.date(milliseconds) }

  private func call(
    _ name: String, params: Properties, at milliseconds: Int64, provider: String = "segment"
  ) -> Record {
    SegmentStream.call(name, params: params, at: milliseconds, provider: provider)
  }

  private func wire(_ name: String, params: Properties, at milliseconds: Int64) -> Record {
    SegmentStream.wire(name, params: params, at: milliseconds, source: "segment@phone")
  }
}
