import Foundation
import XCTest

@testable import TagscopeInspector
@testable import TagscopeRecording
@testable import TagscopeTimeline

final class BackgroundDrainTests: XCTestCase {
  /// Collects what the drain hands over, with arrival times.
  final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(Int, UInt64)] = []
    private var drops = 0

    func take(_ batch: [Int], _ dropped: Int) {
      lock.lock()
      let now = DispatchTime.now().uptimeNanoseconds
      items += batch.map { ($0, now) }
      drops += dropped
      lock.unlock()
    }

    var received: [(Int, UInt64)] {
      lock.lock()
      defer { lock.unlock() }
      return items
    }

    var dropped: Int {
      lock.lock()
      defer { lock.unlock() }
      return drops
    }
  }

  func testAnItemAfterALongIdleIsHandledPromptly() {
    let collector = Collector()
    let drain = BackgroundDrain<Int>(capacity: 100, name: "test") { collector.take($0, $1) }
    defer { drain.close() }
    for round in 0..<3 {
      usleep(400_000)  // long enough for the thread to go to its deep sleep
      let start = DispatchTime.now().uptimeNanoseconds
      drain.push(round)
      let deadline = Date().addingTimeInterval(2)
      while collector.received.count < round + 1 && Date() < deadline { usleep(500) }
      guard let arrival = collector.received.last?.1 else { return XCTFail("nothing handled") }
      XCTAssertLessThan(Double(arrival - start) / 1e6, 100 * timingSlack, "round \(round)")
    }
  }

  func testFlushAndCloseHandleEverythingAndCountDrops() {
    let collector = Collector()
    let gate = NSLock()
    gate.lock()
    let entered = DispatchSemaphore(value: 0)
    let drain = BackgroundDrain<Int>(capacity: 10, name: "test") { batch, dropped in
      entered.signal()
      gate.lock()
      gate.unlock()
      collector.take(batch, dropped)
    }
    XCTAssertTrue(drain.push(0))
    entered.wait()  // the thread took [0] and blocks on the gate: the backlog is empty again
    for value in 1..<11 { XCTAssertTrue(drain.push(value), "\(value) fits the backlog of 10") }
    for value in 11..<30 { XCTAssertFalse(drain.push(value), "\(value) is dropped: the backlog is full") }
    gate.unlock()
    drain.flush()
    drain.close()
    XCTAssertFalse(drain.push(99), "closed")
    let values = collector.received.map(\.0)
    XCTAssertEqual(values, values.sorted())
    XCTAssertEqual(values.count + collector.dropped, 30)
    XCTAssertEqual(collector.dropped, 19)
    XCTAssertEqual(drain.droppedCount, 19 + 1, "the push after close counts too")
  }
}
