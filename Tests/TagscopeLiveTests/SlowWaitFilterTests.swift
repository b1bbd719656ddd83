import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeLive

/// Issue 31: 50 `wait`s whose filter is the slowest the pattern compiler accepts held
/// acknowledgements back 24.8 s and `summary` 23 s, their filters running on the session's worker
/// under the query lock. They now run on a queue of their own: held there, they hold back nothing.
final class SlowWaitFilterTests: XCTestCase {
  private let filter = "prop.payload~/a[ab]{995}c/".addingPercentEncoding(
    withAllowedCharacters: .alphanumerics)!

  func testFiftyWaitsWithTheSlowestFilterHoldBackNeitherAcknowledgementsNorSummary() async throws {
    let harness = try await QueryAPIHarness.start(plan: nil)
    let replies = LockedArray<APIReply>()
    for _ in 0..<50 {
      Thread { [filter] in
        if let reply = try? harness.request("wait?filter=\(filter)&count=1&timeout=240", timeout: 270) {
          replies.append(reply)
        }
      }.start()
    }
    XCTAssertTrue(eventually { harness.query.pendingWaits == 50 }, replies.all.first?.body ?? "")
    // The waits' filters cannot run at all now, however long they would take.
    let release = harness.query.holdWaits()

    let stream = try RawClient(port: harness.server.port)
    stream.send(
      #"{"format":"tagscope-recording","version":1,"app":"App","device":"sim","run":"r","ack":true}"# + "\n")
    let payload = String(repeating: "ab", count: 2_000)
    stream.send(
      (1...100).map { recordLine($0, "event", "e", properties: #"{"payload":"\#(payload)"}"#) }
        .joined(separator: "\n") + "\n")
    XCTAssertEqual(stream.acknowledgements(until: 100).last, 100, "every record acknowledged")
    let summary = try harness.request("summary")
    XCTAssertEqual(summary.status, 200)
    XCTAssertEqual(summary.json["records"] as? Int, 100)
    XCTAssertEqual(replies.all.count, 0, "the waits are still pending")

    // Let them run: the one record that matches completes all 50, and only it.
    let matching = "a" + String(repeating: "ab", count: 497) + "bc"
    stream.send(recordLine(101, "event", "e", properties: #"{"payload":"\#(matching)"}"#) + "\n")
    XCTAssertEqual(stream.acknowledgements(until: 101).last, 101)
    release()
    XCTAssertTrue(eventually { replies.all.count == 50 })
    XCTAssertEqual(replies.all.map(\.status), Array(repeating: 200, count: 50))
    XCTAssertEqual(Set(replies.all.map(\.seqs)), [[101]])
    try await harness.stop()
  }

  func testABombInAFilterIsA400NamingThePatternItsPlaceAndTheLimit() async throws {
    let harness = try await QueryAPIHarness.start(plan: nil)
    for route in ["records", "wait"] {
      let filter = "name~/(a|aa|aaa|aaaa){900}b/".addingPercentEncoding(
        withAllowedCharacters: .alphanumerics)!
      let reply = try harness.request("\(route)?filter=\(filter)")
      XCTAssertEqual(reply.status, 400, route)
      XCTAssertEqual(
        reply.error,
        "parameter 'filter': invalid regular expression '(a|aa|aaa|aaaa){900}b': at 15: the pattern expands "
          + "to more than 1000 steps (a counted repetition is copied once per count)", route)
    }
    XCTAssertEqual(harness.query.pendingWaits, 0)
    try await harness.stop()
  }

  func testAWaitRegisteredWhileRecordsArriveSeesEachRecordOnce() async throws {
    let harness = try await QueryAPIHarness.start(plan: nil)
    try harness.send((1...50).map { recordLine($0, "screen", "home") })
    XCTAssertTrue(eventually { harness.timeline.count == 50 })
    let replies = LockedArray<APIReply>()
    Thread {
      if let reply = try? harness.request(
        "wait?filter=" + "name~/^ho(me|use)$/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
          + "&count=60&timeout=120", timeout: 150)
      {
        replies.append(reply)
      }
    }.start()
    XCTAssertTrue(eventually { harness.query.pendingWaits == 1 })
    try harness.send((51...60).map { recordLine($0, "screen", "home") })
    XCTAssertTrue(eventually { replies.all.count == 1 })
    XCTAssertEqual(replies.all.first?.status, 200)
    XCTAssertEqual(replies.all.first?.seqs, Array(1...60), "the scan's 50 and the queue's 10, each once")
    try await harness.stop()
  }
}
