import Foundation
import XCTest

@testable import TagscopeInspector

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
      XCTAssertLessThan(Double(arrival - start) / 1e6, 50, "round \(round)")
    }
  }

  func testFlushAndCloseHandleEverythingAndCountDrops() {
    let collector = Collector()
    let gate = NSLock()
    gate.lock()
    let drain = BackgroundDrain<Int>(capacity: 10, name: "test") { batch, dropped in
      gate.lock()
      gate.unlock()
      collector.take(batch, dropped)
    }
    for value in 0..<10 { XCTAssertTrue(drain.push(value)) }
    usleep(50_000)  // the thread takes the first batch and blocks on the gate
    for value in 10..<30 { drain.push(value) }
    gate.unlock()
    drain.flush()
    drain.close()
    XCTAssertFalse(drain.push(99), "closed")
    let values = collector.received.map(\.0)
    XCTAssertEqual(values, values.sorted())
    XCTAssertEqual(values.count + collector.dropped, 30)
    XCTAssertEqual(drain.droppedCount, 10 + 1)
    XCTAssertGreaterThan(collector.dropped, 0)
  }
}
