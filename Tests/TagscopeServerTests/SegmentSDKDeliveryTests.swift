import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 46 with a real SDK behind the hub: a Segment adapter hands each call to Segment's official
/// Python SDK in a child process (one JSON line on its standard input; its queue, batching, message
/// ids and flush are its own), the SDK's host a real `listen`, the app's inspector attached to the
/// same `listen`: the live session's delivery ledger follows each call to its batch.
final class SegmentSDKDeliveryTests: XCTestCase {
  func testEveryTagTheSDKSentIsDeliveredWithItsBatch() async throws {
    let run = try await SegmentDeliveryRun(uploadSize: 100, uploadInterval: 0.5)
    let tags = run.sendPlays(4)
    // The hub hands calls to its adapters on its own queue: the SDK's input is closed only once it
    // took them all (closed earlier, the later calls failed to be written, and the hub recorded
    // them as failed, not sent).
    XCTAssertTrue(run.child.waitUntilTaken(tags), run.child.output)
    run.child.finishInput()
    XCTAssertEqual(run.child.waitForExit(), 0, run.child.output)
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == tags }, "\(ledger.snapshot())")
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.total, tags)
    for entry in snapshot.entries {
      XCTAssertEqual(entry.state, .delivered, "\(entry)")
      XCTAssertEqual(entry.provider, "segment")
      XCTAssertEqual(entry.answerStatus, 200)
      XCTAssertNotNil(entry.wirePosition)
      XCTAssertNotEqual(entry.wireSource, entry.device, "the SDK's wire source, not the inspector's")
    }
    XCTAssertEqual(snapshot.unexplained, [], "the SDK sent nothing the hub did not call")
    try await run.stop()
  }

  func testTheCallsTheSDKStillQueuedWhenItWasKilledAreLost() async throws {
    // A batch goes out at 5 messages; the 2 after it would wait an hour. The hub hands the SDK the
    // 2 only once the 5 are delivered: Segment's Swift SDK uploads whatever its queue holds when the
    // count triggers its flush, so 2 calls made at once would go with the batch.
    let run = try await SegmentDeliveryRun(uploadSize: 5, uploadInterval: 3600)
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertEqual(run.sendPlays(5, pausing: false), 5)
    XCTAssertTrue(run.child.waitUntilTaken(5), run.child.output)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == 5 }, "\(ledger.snapshot())")
    let tags = 5 + run.sendPlays(2, from: 5, pausing: false)
    XCTAssertTrue(run.child.waitUntilTaken(tags), run.child.output)
    XCTAssertTrue(eventually { ledger.callCount == tags }, "\(ledger.snapshot())")
    XCTAssertEqual(ledger.snapshot().count(.queued), 2)
    run.child.kill()
    try await run.stop()
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.entries.map(\.state), Array(repeating: .delivered, count: 5) + [.lost, .lost])
    XCTAssertEqual(snapshot.entries.last?.reason, "the session ended before it was sent")
    XCTAssertEqual(HeadlessPrinter.deliveryLine(snapshot), "delivery: 7 calls · 5 delivered · 2 lost")
  }
}

/// The Python SDK's child as a hub's Segment adapter: each call one JSON line.
extension SDKChild: SDKAdapter {
  typealias Call = SegmentCall

  func deliver(_ call: SegmentCall) throws {
    try send(call.method, name: call.name ?? "", properties: call.parameters)
  }
}
