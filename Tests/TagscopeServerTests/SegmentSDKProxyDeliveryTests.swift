import Foundation
import TagscopeLive
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 46 with a real SDK behind the hub, reaching its vendor through the proxy: Segment's
/// official Python SDK sends to api.segment.io through `tagscope proxy` (HTTPS_PROXY, the proxy's
/// CA trusted; the test-only resolve override points the host at a local TLS vendor), while the
/// app's inspector is attached to the same `listen`. Each call's ledger entry carries the real
/// vendor's answer: delivered with its status, or refused for exactly the calls of the batch the
/// vendor refused.
final class SegmentSDKProxyDeliveryTests: XCTestCase {
  private var directory: URL!
  private var vendor: VendorServer!

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-delivery-\(UUID().uuidString)")
    vendor = try await VendorServer.start(
      hosts: ["api.segment.io"], directory: directory.appendingPathComponent("vendor"))
  }

  override func tearDown() async throws {
    await vendor.shutdown()
    try? FileManager.default.removeItem(at: directory)
  }

  func testEveryTagTheSDKSentThroughTheProxyIsDeliveredWithTheVendorsAnswer() async throws {
    let run = try await SegmentDeliveryRun(
      uploadSize: 100, uploadInterval: 0.5, vendor: vendor, directory: directory.appendingPathComponent("run")
    )
    let tags = run.sendPlays(3)
    XCTAssertTrue(run.child.waitUntilTaken(tags), run.child.output)
    run.child.finishInput()
    XCTAssertEqual(run.child.waitForExit(), 0, run.child.output)
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == tags }, "\(ledger.snapshot())")
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.total, tags)
    for entry in snapshot.entries {
      XCTAssertEqual(entry.state, .delivered, "\(entry)")
      XCTAssertEqual(entry.answerStatus, 200, "the vendor's answer, relayed by the proxy")
      XCTAssertNotNil(entry.latencyMilliseconds)
      XCTAssertNotNil(entry.wirePosition)
      XCTAssertNotEqual(entry.wireSource, entry.device, "the SDK's wire source, not the inspector's")
    }
    XCTAssertEqual(snapshot.unexplained, [], "the SDK sent nothing the hub did not call")
    let batches = vendor.requests.filter { $0.host == "api.segment.io" }
    XCTAssertEqual(Set(batches.map(\.path)), ["/v1/batch"])
    let events = try batches.reduce(0) { sum, request in
      sum + (try JSONDecoder().decode(SegmentBatchBody.self, from: Data(request.body))).batch.count
    }
    XCTAssertEqual(events, tags, "every call reached the vendor once")
    try await run.stop()
  }

  func testTheBatchTheVendorRefusedHasExactlyItsCallsRefused() async throws {
    // Batches of 2: the vendor refuses the first (a play and its pause), accepts the second. The
    // SDK does not retry a 400 (Segment's own rule: a 4xx other than 429 is fatal to the batch).
    // Its consumer waits for a full batch (or the hour) before it ends: the run kills it.
    let run = try await SegmentDeliveryRun(
      uploadSize: 2, uploadInterval: 3600, vendor: vendor, directory: directory.appendingPathComponent("run"))
    let ledger = try XCTUnwrap(run.session.delivery)
    vendor.mode = .refuse
    XCTAssertEqual(run.sendPlays(1), 2)
    XCTAssertTrue(run.child.waitUntilTaken(2), run.child.output)
    XCTAssertTrue(eventually { ledger.snapshot().count(.refused) == 2 }, "\(ledger.snapshot())")
    vendor.mode = .answer
    XCTAssertEqual(run.sendPlays(1, from: 1), 2)
    XCTAssertTrue(run.child.waitUntilTaken(4), run.child.output)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == 2 }, "\(ledger.snapshot())")
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.entries.map(\.state), [.refused, .refused, .delivered, .delivered])
    XCTAssertEqual(snapshot.entries.map(\.answerStatus), [400, 400, 200, 200])
    XCTAssertEqual(snapshot.unexplained, [])
    XCTAssertEqual(vendor.requests.filter { $0.host == "api.segment.io" }.count, 2, "one request per batch")
    XCTAssertEqual(HeadlessPrinter.deliveryLine(snapshot), "delivery: 4 calls · 2 delivered · 2 refused")
    try await run.stop()
  }
}

/// What a Segment batch request holds, as far as these tests read it.
private struct SegmentBatchBody: Decodable {
  struct Message: Decodable {
    let type: String
  }
  let batch: [Message]
}
