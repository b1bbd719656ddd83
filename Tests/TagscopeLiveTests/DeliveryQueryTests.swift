import Foundation
import TagscopeTestSupport
import XCTest

/// `GET /tagscope/v1/delivery` on a real `listen`: the ledger's counts and entries, filtered, and
/// its wait until every call made before it is settled.
final class DeliveryQueryTests: XCTestCase {
  func testTheLedgerIsQueriedFilteredAndWaitedFor() async throws {
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    try listen.send([appCall(1, "Add"), appCall(2, "Pay")])
    try sendSegment("Add", to: listen.server.port)
    XCTAssertEqual(try listen.request("wait?count=3&timeout=60").status, 200)

    let all = try listen.request("delivery")
    XCTAssertEqual(all.status, 200, all.body)
    XCTAssertEqual(all.json["counts"] as? [String: Int]?, counts(delivered: 1, queued: 1))
    let queued = try listen.request("delivery?state=queued&provider=segment&device=App%40sim")
    let entries = queued.json["entries"] as? [[String: Any]] ?? []
    XCTAssertEqual(entries.map { $0["name"] as? String }, ["Pay"], queued.body)
    XCTAssertNotNil(entries.first?["ageMs"] as? Int)
    XCTAssertEqual(try listen.request("delivery?timeout=0.2&wait=settled").status, 408, "Pay is still queued")

    let waited = LockedArray<APIReply>()
    let waiting = Thread {
      if let reply = try? listen.request("delivery?wait=settled&timeout=60") { waited.append(reply) }
    }
    waiting.start()
    try sendSegment("Pay", to: listen.server.port)
    XCTAssertTrue(eventually { !waited.all.isEmpty })
    XCTAssertEqual(waited.all.first?.status, 200)
    XCTAssertEqual(waited.all.first?.json["counts"] as? [String: Int]?, counts(delivered: 2, queued: 0))

    XCTAssertEqual(try listen.request("delivery?state=nope").status, 400)
    XCTAssertEqual(try listen.request("delivery?limit=0").status, 400)
    XCTAssertEqual(try listen.request("delivery?wait=forever").status, 400)
  }

  /// `delivery:` in the query API's filter: records and waits read each record's calls' states as
  /// the ledger knows them when they look, and a wait runs again when an earlier record's call
  /// changes state (its wire call arrived), not only on new records it could match.
  func testTheRecordsFilterAndWaitReadTheLedgersStates() async throws {
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    try listen.send([appCall(1, "Add"), appCall(2, "Pay")])
    try sendSegment("Add", to: listen.server.port)
    XCTAssertEqual(try listen.request("wait?count=3&timeout=60").status, 200)

    XCTAssertEqual(try listen.request("records?filter=" + queryValue("delivery:queued")).names, ["Pay"])
    XCTAssertEqual(try listen.request("records?filter=" + queryValue("delivery:delivered")).names, ["Add"])
    let now = try listen.request("wait?timeout=0&count=2&filter=" + queryValue("delivery:delivered"))
    XCTAssertEqual(now.status, 408, now.body)

    let waited = LockedArray<APIReply>()
    let waiting = Thread {
      let path = "wait?count=2&timeout=60&filter=" + queryValue("delivery:delivered provider:segment")
      if let reply = try? listen.request(path) { waited.append(reply) }
    }
    waiting.start()
    XCTAssertTrue(eventually { listen.query.pendingWaits == 1 })
    try sendSegment("Pay", to: listen.server.port)
    XCTAssertTrue(eventually { !waited.all.isEmpty })
    XCTAssertEqual(waited.all.first?.status, 200, waited.all.first?.body ?? "")
    XCTAssertEqual(waited.all.first?.names, ["Add", "Pay"])
    XCTAssertEqual(try listen.request("records?filter=" + queryValue("delivery:queued")).names, [])
    XCTAssertEqual(try listen.request("records?filter=" + queryValue("delivery:nope")).status, 400)
  }

  /// An in-app record whose Segment output holds one `track` call named `name`.
  private func appCall(_ seq: Int, _ name: String) -> String {
    #"{"seq":\#(seq),"time":"2026-11-21T10:00:04.210Z","kind":"userAction","name":"\#(name)","#
      + #""outputs":[{"provider":"segment","status":"sent","calls":[{"method":"track","name":"\#(name)","#
      + #""parameters":{"n":\#(seq)}}]}]}"#
  }

  /// Segment's `track` of `name` at the in-app call's time, as its SDK sends it.
  private func sendSegment(_ name: String, to port: Int) throws {
    let seq = name == "Add" ? 1 : 2
    let body =
      #"{"writeKey":"k","type":"track","userId":"u","event":"\#(name)","properties":{"n":\#(seq)},"#
      + #""timestamp":"2026-11-21T10:00:04.300Z"}"#
    let (status, _) = try RawClient.exchange(
      port,
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    XCTAssertEqual(status, 200)
  }

  private func counts(delivered: Int, queued: Int) -> [String: Int] {
    [
      "delivered": delivered, "inFlight": 0, "queued": queued, "droppedBySDK": 0, "refused": 0, "lost": 0,
      "noWireSource": 0, "ambiguous": 0,
    ]
  }
}
