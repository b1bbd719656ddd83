import AnalyticsHub
import Foundation
import TagscopeLive
import TagscopeRecording
import XCTest

/// An SDK's retry after a 503 (the vendor's, or the proxy's own, whose exchange is never
/// answered): the call follows its message's last attempt instead of staying refused or in
/// flight for good, and the retry is not a wire call no call explains.
final class DeliveryLedgerRetryTests: XCTestCase {
  private let start: Int64 = 1_800_000_000_000

  /// By message id: refused 503, retried, delivered; a 400 is not retried (the SDK drops it).
  func testARetryByMessageIDAfterA503DeliversTheCall() {
    let ledger = DeliveryLedger()
    ledger.observe(
      [call("Play", at: 0, id: "m-1"), call("Bad", at: 1, id: "m-2")], firstPosition: 0, received: date(10))
    ledger.observe(
      [wire("Play", at: 0, id: "m-1"), wire("Bad", at: 1, id: "m-2")], firstPosition: 2, received: date(20),
      wireAnswered: false)
    ledger.answered(wirePosition: 2, status: 503, at: date(30))
    ledger.answered(wirePosition: 3, status: 400, at: date(30))
    XCTAssertEqual(state(ledger.snapshot(), "Play"), .refused)

    ledger.observe(
      [wire("Play", at: 0, id: "m-1"), wire("Bad", at: 1, id: "m-2")], firstPosition: 4,
      received: date(2_000),
      wireAnswered: false)
    var snapshot = ledger.snapshot()
    XCTAssertEqual(state(snapshot, "Play"), .inFlight, "its retry, not answered yet")
    XCTAssertEqual(entry(snapshot, "Play")?.wirePosition, 4)
    XCTAssertEqual(
      state(snapshot, "Bad"), .refused, "400: not retried, its message sent again is a duplicate")
    XCTAssertEqual(snapshot.unexplained.map(\.position), [], "both explained by their call")
    ledger.answered(wirePosition: 4, status: 200, at: date(2_100))
    snapshot = ledger.snapshot()
    XCTAssertEqual(state(snapshot, "Play"), .delivered)
    XCTAssertEqual(entry(snapshot, "Play")?.answerStatus, 200)
    XCTAssertTrue(ledger.isSettled(upTo: ledger.callCount))
  }

  /// Without ids: the proxy answered 503 itself (the exchange never answered, so the call was in
  /// flight for good); the SDK's retry from the same source settles it.
  func testARetryWithoutIDsSettlesACallLeftInFlight() {
    let ledger = DeliveryLedger()
    ledger.observe([call("Tap", params: ["n": 1], at: 0)], firstPosition: 0, received: date(10))
    ledger.observe(
      [wire("Tap", params: ["n": 1], at: 0)], firstPosition: 1, received: date(20), wireAnswered: false)
    XCTAssertEqual(state(ledger.snapshot(), "Tap"), .inFlight)
    ledger.observe([wire("Tap", params: ["n": 1], at: 0)], firstPosition: 2, received: date(5_000))
    let snapshot = ledger.snapshot()
    XCTAssertEqual(state(snapshot, "Tap"), .delivered)
    XCTAssertEqual(entry(snapshot, "Tap")?.wirePosition, 2)
    XCTAssertEqual(snapshot.unexplained.map(\.position), [])
    XCTAssertTrue(ledger.isSettled(upTo: ledger.callCount))
  }

  // MARK: Streams

  private func date(_ milliseconds: Int64) -> Date { Date(recordMilliseconds: start + milliseconds) }

  private func call(_ name: String, params: Properties = [:], at milliseconds: Int64, id: String? = nil)
    -> Record
  {
    var parameters = params
    if let id { parameters["messageId"] = .string(id) }
    let output = ProviderOutput(
      provider: "segment", status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: parameters)])
    return Record(
      seq: 1, time: date(milliseconds), kind: .event, name: name, properties: params, outputs: [output],
      source: "phone")
  }

  private func wire(_ name: String, params: Properties = [:], at milliseconds: Int64, id: String? = nil)
    -> Record
  {
    var message: Properties = ["type": "track", "event": .string(name), "properties": .object(params)]
    if let id { message["messageId"] = .string(id) }
    let output = ProviderOutput(
      provider: "segment", status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: message)])
    return Record(
      seq: 1, time: date(milliseconds), kind: .event, name: name, properties: params, outputs: [output],
      source: "segment@phone", raw: "")
  }

  private func entry(_ snapshot: DeliverySnapshot, _ name: String) -> DeliveryEntry? {
    snapshot.entries.first { $0.name == name }
  }

  private func state(_ snapshot: DeliverySnapshot, _ name: String) -> DeliveryState? {
    entry(snapshot, name)?.state
  }
}
