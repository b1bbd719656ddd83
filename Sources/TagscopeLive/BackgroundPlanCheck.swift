import Foundation
import TagscopeTimeline

/// Replay: checks a recording's records in the background as the timeline indexes them, calling
/// `progress` after each 2,000 records and at the end, so coverage and marks appear as they are
/// found.
public final class BackgroundPlanCheck: @unchecked Sendable {
  private let timeline: Timeline
  private let checker: PlanChecker
  private let progress: @Sendable () -> Void
  private let condition = NSCondition()
  private var stopping = false
  private var running = false

  /// A check of `timeline` with `checker`; ``start()`` begins it.
  public init(timeline: Timeline, checker: PlanChecker, progress: @escaping @Sendable () -> Void) {
    self.timeline = timeline
    self.checker = checker
    self.progress = progress
  }

  /// Starts checking on a background thread.
  public func start() {
    condition.lock()
    running = true
    condition.unlock()
    let thread = Thread { [self] in
      run()
      condition.lock()
      running = false
      condition.broadcast()
      condition.unlock()
    }
    thread.name = "tagscope.replay.plan"
    thread.start()
  }

  /// Stops checking and waits for the thread to end.
  public func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    while running { condition.wait() }
    condition.unlock()
  }

  /// Waits until every record is checked (indexing over), for tests and headless use.
  public func waitUntilDone() {
    condition.lock()
    while running { condition.wait() }
    condition.unlock()
  }

  private func run() {
    var next = 0
    while true {
      let indexing = timeline.isIndexing
      let count = timeline.count
      while next < count {
        if let record = try? timeline.record(at: next) { checker.check(record, at: next) }
        next += 1
        if next % 2_000 == 0 {
          progress()
          if isStopping { return }
        }
      }
      progress()
      if !indexing { return }
      condition.lock()
      if !stopping { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
      let stop = stopping
      condition.unlock()
      if stop { return }
    }
  }

  private var isStopping: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopping
  }
}
