import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// ``BulkDelivery``: a batch goes in slices, each delivered only once the slice before it is
/// applied (``ListenIngest/whenApplied(_:)``), never waiting for a store (a sync) per slice.
final class BulkDeliveryApplyTests: XCTestCase {
  /// With the ingest applying only when the test lets it, no slice is delivered while an earlier
  /// one waits to be applied, and nothing waits for a store: every event arrives, in order.
  func testEachSliceWaitsForTheOneBeforeToBeAppliedNotStored() {
    let ingest = ApplyingIngest()
    let server = ServerContext(configuration: ListenConfiguration(port: 0), ingest: ingest)
    let slices = 8
    let names = (0..<(slices * BulkDelivery.sliceSize)).map { "e-\($0)" }
    let events = names.map { name in
      IngestedEvent(
        provider: "segment", kind: .event, name: name, properties: [:], identity: DeviceIdentity(),
        call: CallDescription(method: "track", name: name), raw: "{}", messageID: name)
    }
    let finished = LockedArray<Bool>()
    Thread {
      BulkDelivery.deliver(events, address: "127.0.0.1", server: server)
      finished.append(true)
    }.start()
    // Applies a slice only once it waits: a delivery that ran ahead finds one pending.
    while finished.all.isEmpty {
      XCTAssertTrue(eventually { ingest.pending >= 1 || !finished.all.isEmpty })
      ingest.applyOldest()
    }
    XCTAssertEqual(ingest.pendingAtDeliveries.count, slices)
    XCTAssertEqual(ingest.pendingAtDeliveries.max(), 0, "\(ingest.pendingAtDeliveries)")
    XCTAssertEqual(ingest.storedWaits, 0, "no slice waits for a store")
    XCTAssertEqual(ingest.names, names)
  }
}

/// An ingest that applies what it took only when told (``applyOldest()``), oldest first, and
/// notes at each delivery how many applications were still pending.
private final class ApplyingIngest: ListenIngest, @unchecked Sendable {
  private let lock = NSLock()
  private var waits: [@Sendable () -> Void] = []
  private var atDeliveries: [Int] = []
  private var taken: [String] = []
  private var stored = 0

  func deliver(_ event: ListenEvent) {
    guard case .records(let records) = event else { return }
    lock.withLock {
      atDeliveries.append(waits.count)
      taken += records.map(\.name)
    }
  }

  var hasRoom: Bool { true }

  func whenRoom(_ resume: @escaping @Sendable () -> Void) { resume() }

  func whenStored(_ done: @escaping @Sendable () -> Void) {
    lock.withLock { stored += 1 }
    done()
  }

  func whenApplied(_ done: @escaping @Sendable () -> Void) { lock.withLock { waits.append(done) } }

  /// Applies the oldest slice waiting, if any.
  func applyOldest() {
    let done = lock.withLock { waits.isEmpty ? nil : waits.removeFirst() }
    done?()
  }

  var pending: Int { lock.withLock { waits.count } }
  var pendingAtDeliveries: [Int] { lock.withLock { atDeliveries } }
  var storedWaits: Int { lock.withLock { stored } }
  var names: [String] { lock.withLock { taken } }
}
