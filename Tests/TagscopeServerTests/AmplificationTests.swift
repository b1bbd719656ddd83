import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 31, amplification: a small request must not become huge work. GA4's 25-event limit,
/// `raw` per event, events delivered off the event loops in slices held back by a full queue, and a
/// probe answered while big bodies wait.
final class AmplificationTests: XCTestCase {
  private func post(_ path: String, _ body: String) -> String {
    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  private func ga4Body(events: Int) -> String {
    #"{"client_id":"c-1","user_id":"u-1","events":["#
      + (0..<events).map { #"{"name":"tiny_\#($0)","params":{"i":\#($0)}}"# }.joined(separator: ",") + "]}"
  }

  private func snowplowBody(pageViews: Int, event: String = #"{"e":"pv","url":"https://example.com/"}"#)
    -> String
  {
    #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":["#
      + Array(repeating: event, count: pageViews).joined(separator: ",") + "]}"
  }

  func testGA4RequestOverTwentyFiveEventsIsRefusedWholeWithGooglesAnswers() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    client.send(post("/debug/mp/collect?measurement_id=G-1&api_secret=s", ga4Body(events: 26)))
    let validation = client.readResponse()
    // The issue's body: 9,000 tiny events in 117 KB, under the 130 kB body limit.
    let tiny =
      #"{"client_id":"c-1","events":["#
      + Array(repeating: #"{"name":"t"}"#, count: 9_000)
      .joined(separator: ",") + "]}"
    XCTAssertLessThan(tiny.utf8.count, 130_000)
    client.send(post("/mp/collect?measurement_id=G-1&api_secret=s", tiny))
    let collect = client.readResponse()
    client.send(post("/mp/collect?measurement_id=G-1&api_secret=s", ga4Body(events: 25)))
    let accepted = client.readResponse()
    let records = collector.waitForRecords(25)
    try await server.shutdown()
    XCTAssertEqual(validation?.status, 200)
    let messages = try XCTUnwrap(
      Payload.array(
        Payload.object(try JSONParser.parse(Array((validation?.body ?? "").utf8)))["validationMessages"]))
    XCTAssertEqual(messages.count, 1, "one message for the request, none per event")
    XCTAssertEqual(Payload.object(messages.first)["validationCode"], .string("EXCEEDED_MAX_ENTITIES"))
    XCTAssertEqual(Payload.object(messages.first)["fieldPath"], .string("events"))
    XCTAssertEqual(collect?.status, 204, "Google's collector answers 204 whatever it drops")
    XCTAssertEqual(accepted?.status, 204)
    XCTAssertEqual(records.count, 25, "only the request within the limit is recorded")
    XCTAssertEqual(server.statistics.rejected[.tooManyEvents], 2)
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertEqual(problems.filter { $0.contains("tooManyEvents") }.count, 2, "\(problems)")
  }

  func testEachGA4RecordsRawIsTheRequestWithOnlyItsOwnEvent() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    let body = ga4Body(events: 20)
    client.send(post("/mp/collect?measurement_id=G-1&api_secret=s", body))
    XCTAssertEqual(client.readResponse()?.status, 204)
    let records = collector.waitForRecords(20)
    try await server.shutdown()
    XCTAssertEqual(records.count, 20)
    for (index, record) in records.enumerated() {
      let raw = try XCTUnwrap(record.raw)
      XCTAssertLessThan(raw.utf8.count, body.utf8.count / 5, "raw is one event's part, not the body")
      let object = Payload.object(try JSONParser.parse(Array(raw.utf8)))
      XCTAssertEqual(object["client_id"], .string("c-1"), "the request's fields stay in raw")
      XCTAssertEqual(object["user_id"], .string("u-1"))
      let events = try XCTUnwrap(Payload.array(object["events"]))
      XCTAssertEqual(events.count, 1)
      XCTAssertEqual(Payload.object(events.first)["name"], .string("tiny_\(index)"))
    }
  }

  func testAProbeIsAnsweredWhileSixteenBigBodiesWaitToBeDecoded() async throws {
    let (server, collector) = try await startServer()
    // The large-body queue is held until the probes are answered: the big bodies wait there however
    // fast or slow the machine is.
    let parsing = DispatchSemaphore(value: 0)
    RequestPolicy.parser.async { parsing.wait() }
    var held = true
    defer { if held { parsing.signal() } }
    let request = post("/com.snowplowanalytics.snowplow/tp2", snowplowBody(pageViews: 2_000))
    let replies = LockedArray<Int>()
    let senders = try (0..<16).map { _ in try RawClient(port: server.port) }
    for sender in senders {
      Thread {
        sender.send(request)
        replies.append(sender.readResponse()?.status ?? -1)
      }.start()
    }
    XCTAssertTrue(eventually { server.statistics.offloadedBodies == 16 }, "every big body is off the loops")
    let probe = try RawClient(port: server.port)
    for round in 0..<10 {
      probe.send(post("/v1/track", #"{"writeKey":"k","type":"track","userId":"p","event":"Probe\#(round)"}"#))
      XCTAssertEqual(probe.readResponse()?.status, 200)
    }
    XCTAssertEqual(replies.all, [], "the probes were answered while the big bodies waited")
    parsing.signal()
    held = false
    XCTAssertTrue(eventually { replies.all.count == 16 })
    XCTAssertEqual(replies.all, Array(repeating: 200, count: 16))
    let records = collector.waitForRecords(16 * 2_000 + 10)
    try await server.shutdown()
    XCTAssertEqual(records.count, 16 * 2_000 + 10)
    XCTAssertEqual(records.filter { $0.name.hasPrefix("Probe") }.count, 10)
  }

  func testManyEventsAreDeliveredInSlicesOnlyWhenTheQueueHasRoom() async throws {
    let ingest = GatedIngest()
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(host: "127.0.0.1", port: 0), ingest: ingest)
    // 5,000 small events in 60 KB: under the large-body size, over the event count that sends
    // delivery off the loop.
    let pageViews = 5_000
    let body = snowplowBody(pageViews: pageViews, event: #"{"e":"pv"}"#)
    XCTAssertLessThan(body.utf8.count, RequestPolicy.offloadBytes)
    let parsing = DispatchSemaphore(value: 0)
    RequestPolicy.parser.async { parsing.wait() }
    let client = try RawClient(port: server.port)
    let replies = LockedArray<Int>()
    let request = post("/com.snowplowanalytics.snowplow/tp2", body)
    Thread {
      client.send(request)
      replies.append(client.readResponse()?.status ?? -1)
    }.start()
    // Once the request was let in (the queue had room then), fill the queue.
    XCTAssertTrue(eventually { ingest.roomAsked > 0 })
    ingest.close()
    parsing.signal()
    XCTAssertTrue(eventually { ingest.waiting > 0 }, "the delivery waits for room")
    XCTAssertEqual(ingest.delivered, [], "nothing delivered into a full queue")
    XCTAssertEqual(replies.all, [], "no reply before the events are taken")
    ingest.open()
    XCTAssertTrue(eventually { replies.all == [200] }, "\(replies.all)")
    try await server.shutdown()
    XCTAssertEqual(server.statistics.offloadedBodies, 0, "a small body: sent off the loop for its events")
    XCTAssertEqual(ingest.delivered.reduce(0, +), pageViews)
    XCTAssertTrue(ingest.delivered.allSatisfy { $0 <= BulkDelivery.sliceSize }, "\(ingest.delivered)")
    XCTAssertEqual(
      ingest.appliedWaits, (pageViews - 1) / BulkDelivery.sliceSize,
      "one wait per slice but the last, for the worker to apply it, not to sync it")
    XCTAssertEqual(ingest.storedWaits, 1, "one wait for the store, for the reply")
  }

  func testTheOffloadBudgetTakesOneBodyAlwaysAndNoMoreThanItsLimit() {
    let budget = OffloadBudget(limit: 100)
    XCTAssertTrue(budget.reserve(500), "a single body larger than the budget is still taken")
    XCTAssertFalse(budget.reserve(1))
    budget.release(500)
    XCTAssertTrue(budget.reserve(60))
    XCTAssertTrue(budget.reserve(40))
    XCTAssertFalse(budget.reserve(1))
    budget.release(40)
    XCTAssertTrue(budget.reserve(40))
  }
}

/// An ingest whose room is opened and closed by the test; it counts what it was given per delivery,
/// how often it was asked for room and how often to call back once applied and once stored.
private final class GatedIngest: ListenIngest, @unchecked Sendable {
  private let lock = NSLock()
  private var isOpen = true
  private var resumers: [@Sendable () -> Void] = []
  private var deliveries: [Int] = []
  private var asked = 0
  private var stored = 0
  private var applied = 0

  func deliver(_ event: ListenEvent) {
    if case .records(let records) = event { lock.withLock { deliveries.append(records.count) } }
  }

  var hasRoom: Bool {
    lock.withLock {
      asked += 1
      return isOpen
    }
  }

  func whenRoom(_ resume: @escaping @Sendable () -> Void) {
    let now = lock.withLock { () -> Bool in
      if isOpen { return true }
      resumers.append(resume)
      return false
    }
    if now { resume() }
  }

  func whenStored(_ done: @escaping @Sendable () -> Void) {
    lock.withLock { stored += 1 }
    done()
  }

  func whenApplied(_ done: @escaping @Sendable () -> Void) {
    lock.withLock { applied += 1 }
    done()
  }

  func close() { lock.withLock { isOpen = false } }

  func open() {
    let waiting = lock.withLock { () -> [@Sendable () -> Void] in
      isOpen = true
      defer { resumers = [] }
      return resumers
    }
    for resume in waiting { resume() }
  }

  var roomAsked: Int { lock.withLock { asked } }
  var waiting: Int { lock.withLock { resumers.count } }
  var delivered: [Int] { lock.withLock { deliveries } }
  var storedWaits: Int { lock.withLock { stored } }
  var appliedWaits: Int { lock.withLock { applied } }
}
