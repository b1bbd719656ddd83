import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeInspector
@testable import TagscopeRecording
@testable import TagscopeTimeline

final class BackgroundDrainTests: XCTestCase {
  /// Collects what the drain hands over, and how many items it had handled each time its thread went
  /// to its long idle sleep.
  final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    private var drops = 0
    private var idleSleeps: [Int] = []

    func take(_ batch: [Int], _ dropped: Int) {
      lock.lock()
      items += batch
      drops += dropped
      lock.unlock()
    }

    func sleepsIdle() {
      lock.lock()
      idleSleeps.append(items.count)
      lock.unlock()
    }

    var received: [Int] {
      lock.lock()
      defer { lock.unlock() }
      return items
    }

    var dropped: Int {
      lock.lock()
      defer { lock.unlock() }
      return drops
    }

    /// Whether the thread went to its long idle sleep after handling `count` items.
    func sleptIdle(after count: Int) -> Bool {
      lock.lock()
      defer { lock.unlock() }
      return idleSleeps.contains(count)
    }
  }

  func testAnItemAfterALongIdleWakesTheThread() {
    let collector = Collector()
    // No idle interval: once idle, the thread sleeps until an item wakes it, so each item below is
    // handled only if its push wakes the thread (the wait would otherwise never end).
    let idleWake: @Sendable () -> TimeInterval? = {
      collector.sleepsIdle()
      return nil
    }
    let drain = BackgroundDrain<Int>(capacity: 100, idleWake: idleWake, name: "test") {
      collector.take($0, $1)
    }
    defer { drain.close() }
    for round in 0..<3 {
      XCTAssertTrue(eventually { collector.sleptIdle(after: round) }, "round \(round): the thread sleeps")
      drain.push(round)
      guard eventually({ collector.received.count == round + 1 }) else {
        return XCTFail("round \(round): the item did not wake the thread")
      }
    }
    XCTAssertEqual(collector.received, [0, 1, 2])
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
    let values = collector.received
    XCTAssertEqual(values, values.sorted())
    XCTAssertEqual(values.count + collector.dropped, 30)
    XCTAssertEqual(collector.dropped, 19)
    XCTAssertEqual(drain.droppedCount, 19 + 1, "the push after close counts too")
  }
}
