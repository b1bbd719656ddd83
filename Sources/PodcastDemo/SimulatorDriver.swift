import AnalyticsHub
import Foundation

/// The time a ``SimulatorDriver`` keeps its schedule by: the wall clock (``wall``), or a test's.
public struct DriverClock: Sendable {
  /// The current time.
  public var now: @Sendable () -> Date
  /// Waits on `condition`, which the caller holds, until `deadline` or a broadcast (or a spurious
  /// wake-up: the caller checks again).
  public var wait: @Sendable (_ condition: NSCondition, _ deadline: Date) -> Void

  /// A clock from its two operations.
  public init(
    now: @escaping @Sendable () -> Date,
    wait: @escaping @Sendable (_ condition: NSCondition, _ deadline: Date) -> Void
  ) {
    self.now = now
    self.wait = wait
  }

  /// Real time.
  public static let wall = DriverClock(
    now: { Date() }, wait: { condition, deadline in _ = condition.wait(until: deadline) })
}

/// Runs the simulator in real time on a background thread: human-like pauses, or `rate` events a
/// second (sleeping in slices so 10,000/s keeps to schedule), until the gate is full or ``stop()``.
///
/// Observers that wait (an inspector with `whenFull: .wait` behind a live session that fell
/// behind) slow the simulator down instead of losing records; ``isSlowed`` then says so, and the
/// schedule restarts from there rather than catching up in a burst.
public final class SimulatorDriver: @unchecked Sendable {
  private let hub: AnalyticsHub<PodcastTaxonomy>
  private let clock: ManualClock
  private let seed: UInt64
  private let rate: Double?
  private let gate: DispatchGate
  private let tour: Bool
  private let pacing: DriverClock
  private let condition = NSCondition()
  private var stopping = false
  private var running = false
  private var slowedUntil = Date.distantPast

  /// How far behind its schedule the simulator may fall before it counts as slowed.
  public static let slowedAfter: TimeInterval = 0.25

  /// A driver sending the simulator's tags to `hub` (observed through `gate`), advancing `clock`
  /// with the time of `pacing` (real time by default); `tour` opens with the simulator's quick tour
  /// of the deliberate bugs.
  public init(
    hub: AnalyticsHub<PodcastTaxonomy>, clock: ManualClock, seed: UInt64, rate: Double?, gate: DispatchGate,
    tour: Bool = false, pacing: DriverClock = .wall
  ) {
    self.tour = tour
    self.pacing = pacing
    self.hub = hub
    self.clock = clock
    self.seed = seed
    self.rate = rate
    self.gate = gate
  }

  /// Starts the simulator thread.
  public func start() {
    condition.lock()
    running = true
    condition.unlock()
    let thread = Thread { [self] in
      drive()
      condition.lock()
      running = false
      condition.broadcast()
      condition.unlock()
    }
    thread.name = "tagscope.demo.simulator"
    thread.start()
  }

  /// Stops the simulator and waits for its thread to end.
  public func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    while running { condition.wait() }
    condition.unlock()
  }

  /// Whether the simulator fell behind its schedule within the last second, because its observers
  /// made it wait.
  public var isSlowed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return slowedUntil > pacing.now()
  }

  /// Waits until the gate is full (or ``stop()``), for tests.
  public func waitUntilFinished() {
    condition.lock()
    while running { condition.wait() }
    condition.unlock()
  }

  private func drive() {
    let simulator = PodcastSimulator(hub: hub, seed: seed, tour: tour)
    var start = pacing.now()
    var due = start
    var steps = 0
    while !gate.isFull {
      let delay = simulator.step()
      steps += 1
      // Observers that wait (the inspector behind a busy live session) slow the simulator down.
      // At a rate, the pace follows the dispatches passed, so every step's are delivered first:
      // counted while still on their way, the driver would run ahead of its rate.
      if rate != nil || steps % HeadlessRun.flushInterval == 0 { hub.flush() }
      if let rate {
        due = start.addingTimeInterval(Double(gate.count) / rate)
      } else {
        due = due.addingTimeInterval(delay)
      }
      let now = pacing.now()
      if now.timeIntervalSince(due) > Self.slowedAfter {
        // Behind schedule: say so, and go on from here at the same pace instead of a burst.
        condition.lock()
        slowedUntil = now.addingTimeInterval(1)
        condition.unlock()
        due = now
        if let rate { start = now.addingTimeInterval(-Double(gate.count) / rate) }
      }
      // Sleep until the next step is due (or a stop); at high rates several steps share a slice.
      condition.lock()
      while !stopping && due.timeIntervalSince(pacing.now()) > 0.002 { pacing.wait(condition, due) }
      let stop = stopping
      condition.unlock()
      clock.advance(by: max(0, pacing.now().timeIntervalSince(clock.now)))
      if stop { return }
    }
  }
}
