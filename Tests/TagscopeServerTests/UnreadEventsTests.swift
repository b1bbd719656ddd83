import AnalyticsHub
import Foundation
import NIOPosix
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// An event a batch's check accepted but its slice could not read again is never left out without
/// a word (``UnreadEvents``): it is counted with its place, and the request's delivery reports it
/// as a problem once every other event was delivered.
final class UnreadEventsTests: XCTestCase {
  /// A JSON batch of `count` events named `e-N`; `broken` events are not objects, and `refused`
  /// ones are objects its decoder gives nothing for.
  private func batch(_ count: Int, broken: Set<Int>, refused: Set<Int>) -> EventBatch {
    var document: [UInt8] = Array("[".utf8)
    var spans: [Range<Int>] = []
    for position in 0..<count {
      if position > 0 { document.append(UInt8(ascii: ",")) }
      let text = broken.contains(position) ? "\"not an object\"" : #"{"event":"e-\#(position)"}"#
      spans.append(document.count..<document.count + text.utf8.count)
      document += Array(text.utf8)
    }
    document += Array("]".utf8)
    return EventBatch(document: document, spans: spans, credentials: []) { position, message in
      guard !refused.contains(position), case .string(let name)? = message["event"] else { return nil }
      return IngestedEvent(
        provider: "posthog", kind: .event, name: name, properties: [:], identity: DeviceIdentity(),
        call: CallDescription(method: "capture", name: name), raw: "{}", messageID: name)
    }
  }

  func testABatchCountsWhatItCannotReadAgainWithItsPlaces() {
    let batch = batch(12, broken: [3], refused: [5, 6, 7, 8, 9, 10])
    XCTAssertNil(batch.unread.problem)
    let events = batch.events(0..<6) + batch.events(6..<12)
    XCTAssertEqual(events.map(\.name), ["e-0", "e-1", "e-2", "e-4", "e-11"])
    XCTAssertEqual(batch.unread.count, 7)
    XCTAssertEqual(
      batch.unread.problem,
      "7 accepted events were checked but could not be read again to be recorded (event 3, event 5, event 6, event 7, event 8 and 2 more): not recorded; this is a Tagscope bug, please report it"
    )
  }

  /// Through the request intake, on both of its paths: a small reply delivered on the event loop,
  /// and a reply of more than ``BulkDelivery/offloadEvents`` events delivered in slices.
  func testTheRequestIntakeReportsThemOnceTheOtherEventsAreDelivered() throws {
    // A real event loop: the offloaded path hands its reply back to the loop from another thread.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer { try? group.syncShutdownGracefully() }
    for count in [8, BulkDelivery.offloadEvents * 2 + 1] {
      let ingest = CapturingIngest()
      let server = ServerContext(configuration: ListenConfiguration(port: 0), ingest: ingest)
      let loop = group.next()
      let batch = batch(count, broken: [], refused: [count - 1])
      var made = SDKReply(status: .ok, body: "{}")
      made.batch = batch
      let reply = made
      let answered = LockedArray<Bool>()
      // Taken in on the loop, as the pipeline does.
      let taken = try loop.submit {
        RequestIntake.take(
          bodyBytes: 10, server: server, peerHost: "10.0.0.9", eventLoop: loop, answer: { reply },
          done: { _, accepted in answered.append(accepted) })
      }.wait()
      XCTAssertTrue(taken)
      XCTAssertTrue(eventually { !answered.all.isEmpty }, "\(count) events")
      XCTAssertEqual(ingest.count, count - 1, "\(count) events")
      XCTAssertEqual(ingest.problems.count, 1, "\(count) events: \(ingest.problems)")
      XCTAssertTrue(
        ingest.problems.first?.hasPrefix("1 accepted event was checked") == true, "\(ingest.problems)")
      XCTAssertTrue(ingest.problems.first?.contains("(event \(count - 1))") == true, "\(ingest.problems)")
    }
  }
}
