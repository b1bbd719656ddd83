import AnalyticsHub
import NIOCore
import XCTest

@testable import TagscopeServer

/// ``RetryMemory``: a message remembered from a request answered `503` matches one retry, for
/// ``RetryMemory/window`` at most, and the memory holds at most ``RetryMemory/limit`` messages.
final class RetryMemoryTests: XCTestCase {
  private func event(_ id: String?, raw: String = "{}", provider: String = "segment") -> IngestedEvent {
    IngestedEvent(
      provider: provider, kind: .event, name: "e", properties: [:], identity: DeviceIdentity(),
      call: CallDescription(method: "track", name: "e"), raw: raw, messageID: id)
  }

  /// Remembers `events` as one request answered `503` at `now`; how many messages the bound
  /// leaves unprotected.
  @discardableResult
  private func remember(_ events: [IngestedEvent], in memory: RetryMemory, now: NIODeadline) -> Int {
    let ledger = RetryLedger()
    XCTAssertEqual(memory.admit(events, ledger: ledger, now: now).count, events.count)
    return memory.remember(ledger, now: now)
  }

  func testARememberedMessageMatchesOneRetryAndOnlyItsOwnId() {
    let memory = RetryMemory()
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    remember([event("m-1"), event(nil, raw: #"{"a":1}"#)], in: memory, now: start)
    let retry = RetryLedger()
    let admitted = memory.admit(
      [event("m-1"), event("m-2"), event(nil, raw: #"{"a":1}"#), event("m-1", provider: "posthog")],
      ledger: retry, now: start)
    XCTAssertEqual(admitted.map(\.messageID), ["m-2", "m-1"], "a new id, and the same id of another SDK")
    XCTAssertEqual(admitted.map(\.provider), ["segment", "posthog"])
    XCTAssertEqual(retry.skipped, 2)
    XCTAssertEqual(retry.keys.keys.count, 4, "all its messages, for a 503 of the retry too")
    // Used up: the app's own second send of m-1 is recorded.
    XCTAssertEqual(memory.admit([event("m-1")], ledger: RetryLedger(), now: start).count, 1)
  }

  func testMessagesAreForgottenAfterTheWindowAndPastTheLimit() {
    let memory = RetryMemory()
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    remember([event("old")], in: memory, now: start)
    let later = start + RetryMemory.window + .seconds(1)
    XCTAssertEqual(
      memory.admit([event("old")], ledger: RetryLedger(), now: later).count, 1, "past the window")

    remember([event("m-0")], in: memory, now: later)
    remember((1...RetryMemory.limit).map { event("m-\($0)") }, in: memory, now: later)
    XCTAssertEqual(
      memory.admit([event("m-0")], ledger: RetryLedger(), now: later).count, 1, "the oldest, forgotten")
    XCTAssertEqual(
      memory.admit([event("m-1"), event("m-\(RetryMemory.limit)")], ledger: RetryLedger(), now: later).count,
      0)
  }

  /// The bound is the memory's: a request with more messages than it holds has the rest
  /// counted, and messages pushed out before their window ended are counted too.
  func testMessagesPastTheBoundAreCountedAsUnprotected() {
    let memory = RetryMemory()
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    XCTAssertEqual(remember([event("a-1"), event("a-2")], in: memory, now: start), 0)
    let many = (1...(RetryMemory.limit + 3)).map { event("m-\($0)") }
    XCTAssertEqual(remember(many, in: memory, now: start), 3 + 2, "3 never noted, a-1 and a-2 pushed out")
    XCTAssertEqual(memory.admit([event("a-1"), event("m-1")], ledger: RetryLedger(), now: start).count, 1)
    XCTAssertEqual(
      memory.admit([event("m-\(RetryMemory.limit + 1)")], ledger: RetryLedger(), now: start).count, 1,
      "past the bound: recorded again")
    let later = start + RetryMemory.window + .seconds(1)
    XCTAssertEqual(remember([event("b-1")], in: memory, now: later), 0, "expired ones are not unprotected")
  }

  /// A bulk request delivered in slices: the first slices' events are held, the rest keyed as
  /// they come; answered `503`, it is remembered whole.
  func testARequestDeliveredInSlicesPastTheHeldEventsIsRememberedWhole() {
    let memory = RetryMemory()
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    let ledger = RetryLedger()
    let slices = (0..<3).map { slice in (0..<2_048).map { event("s-\(slice)-\($0)") } }
    for slice in slices { XCTAssertEqual(memory.admit(slice, ledger: ledger, now: start).count, 2_048) }
    XCTAssertGreaterThan(slices.joined().count, RetryLedger.heldLimit)
    XCTAssertEqual(memory.remember(ledger, now: start), 0)
    for slice in slices {
      XCTAssertEqual(memory.admit(slice, ledger: RetryLedger(), now: start).count, 0, "every retry skipped")
    }
  }

  /// A 4,000-event batch delivered in slices is held one slice at most, the rest keyed: holding
  /// every event kept all of a large Firebase upload's records alive until its last slice.
  func testABulkRequestHoldsAtMostOneSliceOfItsEvents() {
    let memory = RetryMemory()
    let ledger = RetryLedger()
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    for slice in 0..<16 {
      let events = (0..<(4_000 / 16)).map { event("b-\(slice)-\($0)") }
      XCTAssertEqual(memory.admit(events, ledger: ledger, now: start).count, events.count)
    }
    XCTAssertLessThanOrEqual(ledger.heldCount, BulkDelivery.sliceSize)
    XCTAssertEqual(ledger.keys.keys.count + ledger.keys.unnoted, 4_000, "every event keyed or held")
  }

  /// The server counts the messages of a request answered `503` that the bound leaves
  /// unprotected, and says so once per request.
  func testTheServerReportsMessagesItCannotRemember() {
    let collector = Collector()
    let server = ServerContext(
      configuration: ListenConfiguration(port: 0), ingest: ImmediateIngest { collector.receive($0) })
    let ledger = RetryLedger()
    _ = server.retries.admit((0..<(RetryMemory.limit + 2)).map { event("m-\($0)") }, ledger: ledger)
    server.remember(ledger)
    XCTAssertEqual(server.statistics.snapshot.retriesUnprotected, 2)
    XCTAssertTrue(
      server.statistics.snapshot.summary.contains("2 SDK records answered 503 past the retry memory"))
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertEqual(problems.count, 1)
    XCTAssertTrue(
      problems.first?.hasPrefix("2 SDK messages answered 503 cannot be told from their retries") == true,
      "\(problems)")
  }
}
