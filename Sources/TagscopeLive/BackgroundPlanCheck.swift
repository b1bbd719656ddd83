import Foundation
import TagscopeRecording
import TagscopeTimeline

/// Replay: checks a recording's records in the background as the timeline indexes them, calling
/// `progress` after each 2,000 records and at the end, so coverage and marks appear as they are
/// found.
public final class BackgroundPlanCheck: @unchecked Sendable {
  private let timeline: Timeline
  private let checker: PlanChecker
  private let progress: @Sendable () -> Void
  private let lock = NSLock()
  private var worker: WorkerThread?

  /// A check of `timeline` with `checker`; ``start()`` begins it.
  public init(timeline: Timeline, checker: PlanChecker, progress: @escaping @Sendable () -> Void) {
    self.timeline = timeline
    self.checker = checker
    self.progress = progress
  }

  /// Starts checking on a background thread.
  public func start() {
    let started = WorkerThread(name: "tagscope.replay.plan") { [self] worker in run(worker) }
    lock.lock()
    worker = started
    lock.unlock()
  }

  /// Stops checking and waits for the thread to end.
  public func stop() { running?.stop() }

  /// Waits until every record is checked (indexing over), for tests and headless use.
  public func waitUntilDone() { running?.join() }

  private var running: WorkerThread? {
    lock.lock()
    defer { lock.unlock() }
    return worker
  }

  private func run(_ worker: WorkerThread) {
    var next = 0
    while true {
      let indexing = timeline.isIndexing
      let count = timeline.count
      while next < count {
        if let record = try? timeline.record(at: next) { checker.check(record, at: next) }
        next += 1
        if next % 2_000 == 0 {
          progress()
          if worker.isStopping { return }
        }
      }
      progress()
      if !indexing { return }
      if worker.pause(seconds: 0.05) { return }
    }
  }
}
