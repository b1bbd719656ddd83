import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline

/// The one plan check of a session: records are checked against the plan in arrival order (by the
/// live session's worker, or a replay's ``BackgroundPlanCheck``); with a timeline, each record's
/// violation count goes into its index, so the debugger's `[`/`]` and ✗ marks see it. The
/// debugger, the query API and the reports all read its ``monitor``.
public final class PlanChecker: @unchecked Sendable {
  /// The results so far (coverage, violations by position, counts), readable from any thread.
  public let monitor: PlanMonitor
  private let timeline: Timeline?
  private let onChange: @Sendable () -> Void
  private let lock = NSLock()
  private var reloads: [WorkerThread] = []

  /// A checker for `plan`, marking `timeline` when given; `onChange` is called when results change
  /// other than by a check (a reload's progress and end), from the thread that changed them.
  public init(plan: Plan, timeline: Timeline? = nil, onChange: @escaping @Sendable () -> Void = {}) {
    var marking: (@Sendable (Int, Int) -> Void)?
    if let timeline {
      marking = { position, count in timeline.setPlanViolations(count, at: position) }
    }
    monitor = PlanMonitor(plan: plan, marking: marking)
    self.timeline = timeline
    self.onChange = onChange
  }

  /// Checks the record at position `position` and returns its violations.
  @discardableResult
  public func check(_ record: Record, at position: Int) -> [PlanViolation] {
    monitor.check(record, at: position)
  }

  /// Checks the records so far again against `plan` (the plan file changed), on a worker thread of
  /// its own: checks go on meanwhile, the header shows the progress, and every reader moves to the
  /// new plan at once when it is done (a newer reload overtakes an older one). `false` without a
  /// timeline to read the records from.
  @discardableResult
  public func reload(_ plan: Plan) -> Bool {
    guard let timeline else { return false }
    let monitor = self.monitor
    let onChange = self.onChange
    let worker = WorkerThread(name: "tagscope.plan.reload", qualityOfService: .utility) { _ in
      onChange()
      monitor.reload(plan, record: { try? timeline.record(at: $0) }) { _, _ in onChange() }
      onChange()
    }
    lock.lock()
    reloads = reloads.filter(\.isRunning) + [worker]
    lock.unlock()
    return true
  }

  /// Waits until every reload asked for so far is over (tests, headless reports).
  public func waitUntilReloaded() {
    lock.lock()
    let running = reloads
    lock.unlock()
    for worker in running { worker.join() }
  }
}
