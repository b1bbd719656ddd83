import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import XCTest

/// The demo's driver: the gate passes exactly `--count` dispatches; the driver keeps to its rate
/// and stops when asked.
final class SimulatorDriverTests: XCTestCase {
  private func demoHub(_ clock: ManualClock) throws -> AnalyticsHub<PodcastTaxonomy> {
    try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 7)
  }

  func testTheGatePassesExactlyItsLimitAndTheDriverStopsThere() throws {
    let clock = ManualClock(start: Date())
    let hub = try demoHub(clock)
    let observed = DispatchRecorder()
    let gate = DispatchGate(limit: 25, observers: [observed])
    hub.addObserver(gate)
    let driver = SimulatorDriver(hub: hub, clock: clock, seed: 7, rate: 10_000, gate: gate)
    driver.start()
    driver.waitUntilFinished()
    hub.flush()
    XCTAssertTrue(gate.isFull)
    XCTAssertEqual(observed.dispatches.count, 25)
    XCTAssertEqual(observed.dispatches.map(\.seq), observed.dispatches.map(\.seq).sorted())
  }

  func testTheDriverKeepsToItsRateAndStopsWhenAsked() throws {
    let clock = ManualClock(start: Date())
    let hub = try demoHub(clock)
    let gate = DispatchGate(limit: .max, observers: [])
    hub.addObserver(gate)
    let driver = SimulatorDriver(hub: hub, clock: clock, seed: 7, rate: 100, gate: gate)
    let start = Date()
    driver.start()
    Thread.sleep(forTimeInterval: 0.5)
    driver.stop()
    let elapsed = Date().timeIntervalSince(start)
    hub.flush()
    // 100 a second for half a second: about 50, never the thousands an unpaced loop sends.
    XCTAssertGreaterThan(gate.count, 10)
    XCTAssertLessThan(gate.count, Int(elapsed * 100) + 20)
    XCTAssertLessThan(elapsed, 2, "stop() returned promptly")
  }

  func testConcurrentSendersStillGetExactlyTheLimitThrough() throws {
    let clock = ManualClock(start: Date())
    let hub = try demoHub(clock)
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
    let clock = ManualClock(start: Date())
    let hub = try demoHub(clock)
    let stall = StallingObserver(after: 20, for: 0.6)
    // The driver flushes the hub every 256 steps: that is where it waits for the stalled observer.
    let gate = DispatchGate(limit: 600, observers: [stall])
    hub.addObserver(gate)
    let driver = SimulatorDriver(hub: hub, clock: clock, seed: 7, rate: 2_000, gate: gate)
    XCTAssertFalse(driver.isSlowed)
    driver.start()
    driver.waitUntilFinished()
    XCTAssertTrue(driver.isSlowed, "0.6 s behind a 2,000/s schedule")
    hub.flush()
    XCTAssertEqual(gate.count, 600, "slowed, nothing lost")
    Thread.sleep(forTimeInterval: 1.1)
    XCTAssertFalse(driver.isSlowed, "a second later it no longer says so")
  }

  func testAKeptScheduleIsNotSlowed() throws {
    let clock = ManualClock(start: Date())
    let hub = try demoHub(clock)
    let gate = DispatchGate(limit: 30, observers: [])
    hub.addObserver(gate)
    let driver = SimulatorDriver(hub: hub, clock: clock, seed: 7, rate: 200, gate: gate)
    driver.start()
    driver.waitUntilFinished()
    XCTAssertFalse(driver.isSlowed)
  }
}

/// An observer that makes the sending thread wait once, after `after` dispatches.
private final class StallingObserver: HubObserver, @unchecked Sendable {
  private let lock = NSLock()
  private var seen = 0
  private let after: Int
  private let pause: TimeInterval

  init(after: Int, for pause: TimeInterval) {
    self.after = after
    self.pause = pause
  }

  func hubDidDispatch(_ dispatch: Dispatch) {
    let stall = lock.withLock {
      seen += 1
      return seen == after
    }
    if stall { Thread.sleep(forTimeInterval: pause) }
  }
}
