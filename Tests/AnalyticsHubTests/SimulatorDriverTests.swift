import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import XCTest

/// The demo's driver: the gate passes exactly `--count` dispatches; the driver keeps to its rate
/// and stops when asked. It runs on virtual time (``VirtualTime``): nothing here waits for the clock.
final class SimulatorDriverTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_795_000_000)

  private func demoHub() throws -> (AnalyticsHub<PodcastTaxonomy>, ManualClock) {
    let clock = ManualClock(start: start)
    return (try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 7), clock)
  }

  func testTheGatePassesExactlyItsLimitAndTheDriverStopsThere() throws {
    let (hub, clock) = try demoHub()
    let observed = DispatchRecorder()
    let gate = DispatchGate(limit: 25, observers: [observed])
    hub.addObserver(gate)
    let time = VirtualTime(start: start)
    let driver = SimulatorDriver(
      hub: hub, clock: clock, seed: 7, rate: 10_000, gate: gate, pacing: time.pacing)
    driver.start()
    driver.waitUntilFinished()
    hub.flush()
    XCTAssertTrue(gate.isFull)
    XCTAssertEqual(observed.dispatches.count, 25)
    XCTAssertEqual(observed.dispatches.map(\.seq), observed.dispatches.map(\.seq).sorted())
  }

  func testTheDriverKeepsToItsRate() throws {
    let (hub, clock) = try demoHub()
    let gate = DispatchGate(limit: .max, observers: [])
    hub.addObserver(gate)
    let time = VirtualTime(start: start)
    let driver = SimulatorDriver(hub: hub, clock: clock, seed: 7, rate: 100, gate: gate, pacing: time.pacing)
    driver.start()
    XCTAssertTrue(eventually { gate.count >= 200 })
    driver.stop()
    hub.flush()
    // 100 a second: the time that passed is the dispatches over the rate (give or take the last
    // step's few), never the no time at all of an unpaced loop.
    let elapsed = time.now.timeIntervalSince(start)
    XCTAssertEqual(elapsed, Double(gate.count) / 100, accuracy: 0.1, "\(gate.count) dispatches")
    XCTAssertEqual(
      clock.now.timeIntervalSince1970, time.now.timeIntervalSince1970, accuracy: 1e-6,
      "the hub's clock follows")
    XCTAssertFalse(driver.isSlowed)
  }

  func testStopEndsTheDriversWaitForItsNextStep() throws {
    let (hub, clock) = try demoHub()
    let gate = DispatchGate(limit: .max, observers: [])
    hub.addObserver(gate)
    // Time stands still: after its first step the driver waits for the next one until stopped.
    let time = VirtualTime(start: start, frozen: true)
    let driver = SimulatorDriver(hub: hub, clock: clock, seed: 7, rate: 100, gate: gate, pacing: time.pacing)
    driver.start()
    XCTAssertTrue(eventually { time.isWaitedOn }, "the driver waits for its next step")
    let sent = gate.count
    let stopped = expectation(description: "stop() returns")
    Thread {
      driver.stop()
      stopped.fulfill()
    }.start()
    wait(for: [stopped], timeout: 60)
    hub.flush()
    XCTAssertEqual(gate.count, sent, "nothing more after the stop")
    XCTAssertLessThan(sent, 10, "one step, not an unpaced loop")
  }

  func testConcurrentSendersStillGetExactlyTheLimitThrough() throws {
    let (hub, _) = try demoHub()
    let observed = DispatchRecorder()
    let gate = DispatchGate(limit: 100, observers: [observed])
    hub.addObserver(gate)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<50 { hub.send(screen: .podcasts) }
    }
    hub.flush()
    XCTAssertEqual(gate.count, 100)
    XCTAssertEqual(observed.dispatches.count, 100)
  }

  func testAWaitingObserverSlowsTheSimulatorAndTheDriverSaysSo() throws {
    let (hub, clock) = try demoHub()
    let time = VirtualTime(start: start)
    // The 20th dispatch holds the sending thread 0.6 s. If the hub hands its observers to a queue,
    // the driver waits for them where it flushes the hub, every 256 steps.
    let stall = StallingObserver(after: 20) { time.advance(by: 0.6) }
    let gate = DispatchGate(limit: 600, observers: [stall])
    hub.addObserver(gate)
    let driver = SimulatorDriver(
      hub: hub, clock: clock, seed: 7, rate: 2_000, gate: gate, pacing: time.pacing)
    XCTAssertFalse(driver.isSlowed)
    driver.start()
    driver.waitUntilFinished()
    XCTAssertTrue(driver.isSlowed, "0.6 s behind a 2,000/s schedule")
    hub.flush()
    XCTAssertEqual(gate.count, 600, "slowed, nothing lost")
    time.advance(by: 1.1)
    XCTAssertFalse(driver.isSlowed, "a second later it no longer says so")
  }

  func testAKeptScheduleIsNotSlowed() throws {
    let (hub, clock) = try demoHub()
    let gate = DispatchGate(limit: 30, observers: [])
    hub.addObserver(gate)
    let time = VirtualTime(start: start)
    let driver = SimulatorDriver(hub: hub, clock: clock, seed: 7, rate: 200, gate: gate, pacing: time.pacing)
    driver.start()
    driver.waitUntilFinished()
    XCTAssertFalse(driver.isSlowed)
  }
}

/// The driver's time in these tests: it passes only when the driver waits for its next step (it
/// jumps to the step's time) or when the test moves it. Frozen, it does not jump: the driver then
/// waits until it is stopped.
private final class VirtualTime: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  private var waiting = 0
  private let frozen: Bool

  init(start: Date, frozen: Bool = false) {
    current = start
    self.frozen = frozen
  }

  var now: Date { lock.withLock { current } }

  /// Whether the driver is waiting for its next step (frozen time).
  var isWaitedOn: Bool { lock.withLock { waiting > 0 } }

  func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

  var pacing: DriverClock {
    DriverClock(
      now: { [self] in now },
      wait: { [self] condition, deadline in
        guard frozen else { return lock.withLock { current = max(current, deadline) } }
        lock.withLock { waiting += 1 }
        condition.wait()
        lock.withLock { waiting -= 1 }
      })
  }
}

/// An observer that holds the sending thread once, after `after` dispatches (`stall` passes the
/// time it takes).
private final class StallingObserver: HubObserver, @unchecked Sendable {
  private let lock = NSLock()
  private var seen = 0
  private let after: Int
  private let stall: @Sendable () -> Void

  init(after: Int, stall: @escaping @Sendable () -> Void) {
    self.after = after
    self.stall = stall
  }

  func hubDidDispatch(_ dispatch: Dispatch) {
    let stalls = lock.withLock {
      seen += 1
      return seen == after
    }
    if stalls { stall() }
  }
}
