import AnalyticsHub
import Foundation
import TagscopeLive
import TagscopeRecording
import XCTest

/// The delivery ledger on hand-made in-app and wire record streams with known answers: every
/// state, ambiguous matches, clock skew, no wire source, wire calls no in-app call explains.
final class DeliveryLedgerTests: XCTestCase {
  /// The Mac's clock at the start of each stream.
  private let start: Int64 = 1_800_000_000_000

  func testEveryStateFromHandMadeStreams() {
    let ledger = DeliveryLedger()
    let inApp = [
      call("Exact", params: ["n": 1], at: 0, id: "m-1"),
      call("Matched", params: ["n": 2], at: 100),
      call("Refused", params: ["n": 3], at: 200),
      call("Queued", params: ["n": 4], at: 300),
      call(
        "a_name_well_over_forty_characters_long_for_firebase", params: [:], at: 400,
        violations: [
          RecordViolation(rule: "segment.event-name-length", message: "too long", consequence: "dropped")
        ]),
      call("Elsewhere", provider: "braze", at: 500),
    ]
    ledger.observe(inApp, firstPosition: 0, received: date(600))
    // The wire: the exact one by its id only (other parameters), the refused one not answered yet,
    // one the app never called.
    ledger.observe(
      [wire("Exact", params: ["n": 99], at: 50, id: "m-1"), wire("Matched", params: ["n": 2], at: 100)],
      firstPosition: 6, received: date(1_000))
    ledger.observe(
      [wire("Refused", params: ["n": 3], at: 200), wire("Application Opened", at: 10)], firstPosition: 8,
      received: date(1_100), wireAnswered: false)
    var snapshot = ledger.snapshot(now: date(10_300))
    XCTAssertEqual(state(snapshot, "Exact"), .delivered)
    XCTAssertEqual(entry(snapshot, "Exact")?.wirePosition, 6)
    XCTAssertEqual(entry(snapshot, "Exact")?.answerStatus, 200)
    XCTAssertEqual(
      entry(snapshot, "Matched")?.latencyMilliseconds, 800,
      "answered at 1,000, called at 100 + the device's offset, 100 (the last record, 500, received at 600)")
    XCTAssertEqual(state(snapshot, "Refused"), .inFlight)
    XCTAssertEqual(state(snapshot, "Queued"), .queued)
    XCTAssertEqual(entry(snapshot, "Queued")?.ageMilliseconds, 10_300 - 300 - 100)
    XCTAssertEqual(state(snapshot, "a_name_well_over_forty_characters_long_for_firebase"), .droppedBySDK)
    XCTAssertEqual(
      entry(snapshot, "a_name_well_over_forty_characters_long_for_firebase")?.reason,
      "segment.event-name-length")
    XCTAssertEqual(state(snapshot, "Elsewhere"), .noWireSource)
    XCTAssertEqual(snapshot.unexplained.map(\.name), ["Application Opened"])
    XCTAssertFalse(ledger.isSettled(upTo: ledger.callCount))

    ledger.answered(wirePosition: 8, status: 400, at: date(1_200))
    ledger.finish()
    snapshot = ledger.snapshot(now: date(20_000))
    XCTAssertEqual(state(snapshot, "Refused"), .refused)
    XCTAssertEqual(entry(snapshot, "Refused")?.answerStatus, 400)
    XCTAssertEqual(state(snapshot, "Queued"), .lost)
    XCTAssertEqual(entry(snapshot, "Queued")?.reason, "the session ended before it was sent")
    XCTAssertEqual(state(snapshot, "Elsewhere"), .noWireSource, "not lost: no wire source could show it")
    XCTAssertEqual(snapshot.count(.delivered), 2)
    XCTAssertEqual(snapshot.total, 6)
    XCTAssertTrue(ledger.isSettled(upTo: ledger.callCount))
    XCTAssertEqual(
      ledger.snapshot(DeliveryFilter(state: .lost)).entries.map(\.name), ["Queued"], "filtered by state")
    XCTAssertEqual(ledger.snapshot(DeliveryFilter(provider: "braze")).total, 1, "filtered by provider")
  }

  /// The debugger's selected record asks for its own calls only: the same entries the whole
  /// snapshot has at that position, none of another's.
  func testTheEntriesOfOnePositionAreThoseOfTheSnapshotThere() {
    let ledger = DeliveryLedger()
    ledger.observe(
      [call("First", params: ["n": 1], at: 0), call("Second", params: ["n": 2], at: 100)], firstPosition: 0,
      received: date(200))
    ledger.observe([call("Third", provider: "braze", at: 300)], firstPosition: 2, received: date(400))
    ledger.observe([wire("Second", params: ["n": 2], at: 100)], firstPosition: 3, received: date(500))
    let snapshot = ledger.snapshot(now: date(600))
    for position in 0...3 {
      XCTAssertEqual(
        ledger.entries(atPosition: position, now: date(600)),
        snapshot.entries.filter { $0.position == position },
        "position \(position)")
    }
    XCTAssertEqual(ledger.entries(atPosition: 1, now: date(600)).map(\.state), [.delivered])
    XCTAssertEqual(ledger.entries(atPosition: 3, now: date(600)), [], "a wire record has no in-app call")
  }

  func testFirebasesOverlongEventNameIsDroppedByTheSDKNotSent() {
    let ledger = DeliveryLedger()
    let name = "remove_podcast_from_favorites_on_podcast_player_screen"
    let rule = RecordViolation(
      rule: "firebase.event-name-length", message: "54 characters", consequence: "replaced", callIndex: 0,
      errorCode: 2)
    let parameterRule = RecordViolation(
      rule: "firebase.parameter-value-length", message: "long", consequence: "truncated", callIndex: 0)
    ledger.observe(
      [
        call(name, provider: "firebase", at: 0, violations: [rule]),
        call("play", provider: "firebase", at: 0, violations: [parameterRule]),
      ], firstPosition: 0, received: date(10))
    let snapshot = ledger.snapshot()
    XCTAssertEqual(state(snapshot, name), .droppedBySDK)
    XCTAssertEqual(entry(snapshot, name)?.reason, "firebase.event-name-length")
    XCTAssertEqual(state(snapshot, "play"), .noWireSource, "a truncated value is still sent")
  }

  func testTwoIdenticalCallsInOneWindowAreAmbiguousInEitherOrder() {
    for wireFirst in [false, true] {
      let ledger = DeliveryLedger()
      let calls = [call("Play", params: ["id": 7], at: 0), call("Play", params: ["id": 7], at: 2_000)]
      let wires = [wire("Play", params: ["id": 7], at: 0), wire("Play", params: ["id": 7], at: 2_000)]
      let (first, second) = wireFirst ? (wires, calls) : (calls, wires)
      ledger.observe(first, firstPosition: 0, received: date(2_100))
      ledger.observe(second, firstPosition: 2, received: date(2_200))
      let entries = ledger.snapshot().entries
      XCTAssertEqual(entries.map(\.state), [.ambiguous, .ambiguous], "wire first: \(wireFirst)")
      XCTAssertEqual(entries.first?.candidates, wireFirst ? [0, 1] : [2, 3])
      XCTAssertTrue(ledger.snapshot().unexplained.isEmpty)
    }
    // The same calls a window apart are each delivered.
    let ledger = DeliveryLedger(window: 5)
    ledger.observe(
      [call("Play", params: ["id": 7], at: 0), wire("Play", params: ["id": 7], at: 0)], firstPosition: 0,
      received: date(100))
    ledger.observe(
      [call("Play", params: ["id": 7], at: 60_000), wire("Play", params: ["id": 7], at: 60_000)],
      firstPosition: 2,
      received: date(60_100))
    XCTAssertEqual(ledger.snapshot().entries.map(\.state), [.delivered, .delivered])
    XCTAssertEqual(ledger.snapshot().entries.map(\.wirePosition), [1, 3])
  }

  func testClockSkewBetweenDeviceAndMacIsAllowed() {
    let hour: Int64 = 3_600_000
    // The device's clock is an hour ahead: its records say +1 h, the Mac receives them now. An
    // SDK that stamps its messages stamps them by the device's clock.
    let stamped = DeliveryLedger()
    stamped.observe(
      [call("Stamped", at: hour), call("Other", params: ["x": 1], at: hour)], firstPosition: 0,
      received: date(100))
    stamped.observe([wire("Stamped", at: hour + 10)], firstPosition: 2, received: date(3_000))
    // Not the same parameters: unexplained, and the call stays queued.
    stamped.observe([wire("Other", params: ["x": 2], at: hour)], firstPosition: 3, received: date(3_200))
    var snapshot = stamped.snapshot(now: date(4_000))
    XCTAssertEqual(state(snapshot, "Stamped"), .delivered)
    XCTAssertEqual(entry(snapshot, "Stamped")?.latencyMilliseconds, 2_900, "by the Mac's clock, skew removed")
    XCTAssertEqual(state(snapshot, "Other"), .queued)
    XCTAssertEqual(entry(snapshot, "Other")?.ageMilliseconds, 3_900)
    XCTAssertEqual(snapshot.unexplained.map(\.position), [3])
    // A message without a stamp has the Mac's time: matched by the Mac's clock.
    let unstamped = DeliveryLedger()
    unstamped.observe([call("Unstamped", at: hour + 50)], firstPosition: 0, received: date(100))
    unstamped.observe([wire("Unstamped", at: 3_100)], firstPosition: 1, received: date(3_100))
    snapshot = unstamped.snapshot(now: date(4_000))
    XCTAssertEqual(state(snapshot, "Unstamped"), .delivered)
    XCTAssertEqual(entry(snapshot, "Unstamped")?.latencyMilliseconds, 3_000)
    // Outside the window by both clocks: not the same call.
    unstamped.observe([call("Late", at: hour + 50)], firstPosition: 2, received: date(100))
    unstamped.observe([wire("Late", at: 300_000)], firstPosition: 3, received: date(300_000))
    XCTAssertEqual(state(unstamped.snapshot(), "Late"), .queued)
  }

  func testAnAppRestartLosesTheCallsItsLastRunStillQueued() {
    let ledger = DeliveryLedger()
    ledger.observe(
      [call("Sent", at: 0, run: "r1"), call("Unsent", at: 10, run: "r1"), wire("Sent", at: 0)],
      firstPosition: 0,
      received: date(100))
    ledger.observe([call("Next", at: 5_000, run: "r2")], firstPosition: 3, received: date(5_100))
    let snapshot = ledger.snapshot(now: date(6_000))
    XCTAssertEqual(snapshot.entries.map(\.state), [.delivered, .lost, .queued])
    XCTAssertEqual(entry(snapshot, "Unsent")?.reason, "the app restarted before it was sent")
    // Sent after all (an SDK that keeps its queue on disk): delivered, not lost.
    ledger.observe([wire("Unsent", at: 10)], firstPosition: 4, received: date(6_100))
    XCTAssertEqual(state(ledger.snapshot(), "Unsent"), .delivered)
  }

  /// A call whose wire call was sent but never answered when the session ends is lost, with its
  /// wire call and why; an answer that still comes settles it.
  func testACallStillInFlightWhenTheSessionEndsIsLost() {
    let ledger = DeliveryLedger()
    ledger.observe(
      [call("Answered", params: ["n": 1], at: 0), call("Unanswered", params: ["n": 2], at: 10)],
      firstPosition: 0, received: date(100))
    ledger.observe(
      [wire("Answered", params: ["n": 1], at: 0), wire("Unanswered", params: ["n": 2], at: 10)],
      firstPosition: 2, received: date(200), wireAnswered: false)
    ledger.answered(wirePosition: 2, status: 200, at: date(300))
    ledger.finish()
    let snapshot = ledger.snapshot(now: date(1_000))
    XCTAssertEqual(state(snapshot, "Answered"), .delivered)
    XCTAssertEqual(state(snapshot, "Unanswered"), .lost)
    XCTAssertEqual(entry(snapshot, "Unanswered")?.wirePosition, 3)
    XCTAssertEqual(entry(snapshot, "Unanswered")?.reason, "the session ended before the vendor answered it")
    XCTAssertTrue(ledger.isSettled(upTo: ledger.callCount))
    ledger.answered(wirePosition: 3, status: 400, at: date(1_100))
    XCTAssertEqual(state(ledger.snapshot(), "Unanswered"), .refused)
    XCTAssertNil(entry(ledger.snapshot(), "Unanswered")?.reason)
  }

  func testAWaitEndsWhenEveryCallBeforeItIsSettled() {
    let ledger = DeliveryLedger()
    ledger.observe([call("A", at: 0), call("B", at: 1)], firstPosition: 0, received: date(10))
    let settled = expectation(description: "settled")
    ledger.whenSettled(upTo: ledger.callCount) { settled.fulfill() }
    ledger.observe([call("C", at: 2)], firstPosition: 2, received: date(20))
    ledger.observe([wire("A", at: 0)], firstPosition: 3, received: date(30))
    XCTAssertFalse(ledger.isSettled(upTo: 2))
    ledger.observe([wire("B", at: 1)], firstPosition: 4, received: date(40))
    wait(for: [settled], timeout: 10)
    XCTAssertFalse(ledger.isSettled(upTo: 3), "C, called after the wait began, is still queued")
  }

  func testADevicePairedWithItsWireSourceIsNotMatchedWithAnother() {
    let ledger = DeliveryLedger()
    ledger.observe(
      [
        call("Seen", at: 0, device: "phone-a", id: "a-1"),
        wire("Seen", at: 0, source: "segment@a", id: "a-1"),
      ],
      firstPosition: 0, received: date(10))
    ledger.observe([call("Tap", at: 100, device: "phone-a")], firstPosition: 2, received: date(110))
    ledger.observe([wire("Tap", at: 100, source: "segment@b")], firstPosition: 3, received: date(120))
    let snapshot = ledger.snapshot(now: date(200))
    XCTAssertEqual(state(snapshot, "Tap"), .queued, "phone-a sends through segment@a")
    XCTAssertEqual(snapshot.unexplained.map(\.source), ["segment@b"])
  }

  /// The parameters' fingerprint: key order ignored, `1830` and `1830.0` alike, canonically
  /// equal strings alike; another value is another call.
  func testParametersMatchInAnyOrderNumbersAsNumbersStringsCanonically() {
    let ledger = DeliveryLedger()
    let params: Properties = ["n": .int(1830), "s": .string("caf\u{E9}"), "list": .array([.int(1), "a"])]
    let sent: Properties = [
      "list": .array([.double(1), "a"]), "s": .string("cafe\u{301}"), "n": .double(1830),
    ]
    ledger.observe(
      [
        call("Same", params: params, at: 0), call("Other", params: params, at: 0),
        wire("Same", params: sent, at: 10), wire("Other", params: ["n": .int(1831)], at: 10),
      ], firstPosition: 0, received: date(100))
    let snapshot = ledger.snapshot(now: date(200))
    XCTAssertEqual(state(snapshot, "Same"), .delivered)
    XCTAssertEqual(state(snapshot, "Other"), .queued)
    XCTAssertEqual(snapshot.unexplained.map(\.position), [3])
  }

  /// Calls that stay queued and wire calls no call explains, all of one name: the matching looks
  /// through a bounded index per call (it looked through every earlier one: quadratic work).
  func testCallsThatStayQueuedDoNotMakeTheMatchingQuadratic() {
    let ledger = DeliveryLedger()
    let count = 4_000
    for index in 0..<count {
      ledger.observe(
        [
          call("Play", params: ["n": .int(index)], at: Int64(index) * 10),
          wire("Play", params: ["n": .int(-index - 1)], at: Int64(index) * 10),
        ], firstPosition: 2 * index, received: date(Int64(index) * 10))
    }
    let work = ledger.matchingWork
    XCTAssertLessThanOrEqual(work, 2 * count * 4 * DeliveryLedger.matchingIndexLimit, "work \(work)")
    XCTAssertEqual(ledger.snapshot(now: date(Int64(count) * 10)).counts[.queued], count)
  }

  /// An SDK that holds far more calls of one name than the index bound (Firebase batching for an
  /// hour) and sends them all later: each is found by its parameters, none left queued, whether its
  /// provider's first wire call came before the calls (the lanes bounded by fingerprint from the
  /// start) or only with them (the queued calls indexed again then).
  func testEveryQueuedCallOfOneNameIsFoundWhenItsSDKSendsThemLater() {
    for sourceFirst in [false, true] {
      let ledger = DeliveryLedger()
      let count = 8 * DeliveryLedger.matchingIndexLimit
      if sourceFirst { ledger.observe([wire("Open", at: 0)], firstPosition: 0, received: date(0)) }
      for index in 0..<count {
        ledger.observe(
          [call("Play", params: ["n": .int(index)], at: Int64(index))], firstPosition: 1 + index,
          received: date(Int64(index)))
      }
      for batch in stride(from: 0, to: count, by: 100) {
        let wires = (batch..<min(batch + 100, count)).map {
          wire("Play", params: ["n": .int($0)], at: Int64($0))
        }
        ledger.observe(wires, firstPosition: 1 + count + batch, received: date(Int64(count + batch)))
      }
      let snapshot = ledger.snapshot(now: date(Int64(2 * count)))
      XCTAssertEqual(snapshot.counts[.delivered], count, "source first: \(sourceFirst)")
      XCTAssertEqual(snapshot.counts[.queued, default: 0], 0, "source first: \(sourceFirst)")
      XCTAssertEqual(snapshot.unexplained.count, sourceFirst ? 1 : 0)
      let work = ledger.matchingWork
      XCTAssertLessThanOrEqual(work, 2 * count * 4 * DeliveryLedger.matchingIndexLimit, "work \(work)")
    }
  }

  /// Identical calls in windows apart, all queued, after as many calls of other parameters (a
  /// long lane, pruned rarely): a look-up goes through the last bound of the identical ones only
  /// (the work stays linear), the newest is still found, the oldest is past the bound.
  func testIdenticalQueuedCallsPastTheBoundKeepTheLookUpBounded() {
    let ledger = DeliveryLedger()
    let half = 64 * DeliveryLedger.matchingIndexLimit
    let apart = Int64(DeliveryLedger.defaultWindow * 1000) + 1
    for index in 0..<half {
      ledger.observe(
        [call("Ping", params: ["n": .int(index)], at: 0)], firstPosition: index, received: date(0))
    }
    let first = Int64(1) * apart
    for index in 0..<half {
      let time = first + Int64(index) * apart
      ledger.observe([call("Ping", at: time)], firstPosition: half + index, received: date(time))
    }
    let work = ledger.matchingWork
    XCTAssertLessThanOrEqual(work, 2 * 2 * half * 4 * DeliveryLedger.matchingIndexLimit, "work \(work)")
    let last = first + Int64(half - 1) * apart
    ledger.observe(
      [wire("Ping", at: last), wire("Ping", at: first)], firstPosition: 2 * half, received: date(last + 1))
    let snapshot = ledger.snapshot(now: date(last + 2))
    XCTAssertEqual(snapshot.counts[.delivered], 1)
    XCTAssertEqual(snapshot.counts[.queued], 2 * half - 1)
    XCTAssertEqual(
      snapshot.unexplained.count, 1, "the oldest identical call is past the bound of its parameters")
  }

  /// Identical calls, each delivered, windows apart, beside a lane kept large by calls still
  /// queued (so it is seldom pruned): the calls settled long ago leave their fingerprint's
  /// entries, so each look-up goes through a few, not hundreds.
  func testSettledIdenticalCallsDoNotLengthenTheLookUp() {
    let ledger = DeliveryLedger()
    let count = 16 * DeliveryLedger.matchingIndexLimit
    let apart = Int64(DeliveryLedger.defaultWindow * 1000) + 1
    ledger.observe([wire("Open", at: 0)], firstPosition: 0, received: date(0))
    for index in 0..<count {
      ledger.observe(
        [call("Ping", params: ["n": .int(index)], at: 0)], firstPosition: 1 + index, received: date(0))
    }
    let before = ledger.matchingWork
    for index in 0..<count {
      let time = Int64(index + 1) * apart
      ledger.observe(
        [call("Ping", at: time), wire("Ping", at: time)], firstPosition: 1 + count + 2 * index,
        received: date(time))
    }
    let work = ledger.matchingWork - before
    XCTAssertEqual(ledger.snapshot(now: date(Int64(count + 2) * apart)).counts[.delivered], count)
    XCTAssertLessThanOrEqual(work, 64 * count, "work \(work) for \(count) calls")
  }

  // MARK: Streams

  private func date(_ milliseconds: Int64) -> Date { Date(recordMilliseconds: start + milliseconds) }

  /// An in-app record whose `provider` output holds one `track` call.
  private func call(
    _ name: String, provider: String = "segment", params: Properties = [:], at milliseconds: Int64,
    device: String = "phone", run: String? = nil, id: String? = nil, violations: [RecordViolation] = []
  ) -> Record {
    var parameters = params
    if let id { parameters.merge([("messageId", .string(id))]) }
    let output = ProviderOutput(
      provider: provider, status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: parameters)],
      violations: violations)
    var extra: Properties = [:]
    if let run { extra["run"] = .string(run) }
    return Record(
      seq: 1, time: date(milliseconds), kind: .event, name: name, properties: params, outputs: [output],
      source: device, extra: extra)
  }

  /// A Segment `track` message as `listen` records it, with a message id of its own unless given.
  private func wire(
    _ name: String, params: Properties = [:], at milliseconds: Int64, source: String = "segment@127.0.0.1",
    id: String? = nil
  ) -> Record {
    SegmentStream.wire(
      name, params: params, at: milliseconds, source: source, messageID: id ?? UUID().uuidString)
  }

  private func entry(_ snapshot: DeliverySnapshot, _ name: String) -> DeliveryEntry? {
    snapshot.entries.first { $0.name == name }
  }

  private func state(_ snapshot: DeliverySnapshot, _ name: String) -> DeliveryState? {
    entry(snapshot, name)?.state
  }
}
