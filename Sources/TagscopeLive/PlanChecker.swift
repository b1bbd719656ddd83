import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline

/// Checks records against a tagging plan in arrival order; with a timeline, each record's
/// violation count goes into its index, so the debugger's `[`/`]` and ✗ marks see it.
public final class PlanChecker: Sendable {
  /// The results so far (coverage, violations by position, counts), readable from any thread.
  public let monitor: PlanMonitor
  private let timeline: Timeline?
  /// Orders a check's mark on the timeline with a reload's, so no mark of the old plan outlives it.
  private let marking = NSLock()

  /// A checker for `plan`, marking `timeline` when given.
  public init(plan: Plan, timeline: Timeline? = nil) {
    monitor = PlanMonitor(plan: plan)
    self.timeline = timeline
  }

  /// Checks the record at position `position` and returns its violations.
  @discardableResult
  public func check(_ record: Record, at position: Int) -> [PlanViolation] {
    marking.lock()
    defer { marking.unlock() }
    let found = monitor.check(record, at: position)
    if !found.isEmpty { timeline?.setPlanViolations(found.count, at: position) }
    return found
  }

  /// Checks the records so far again against `plan` (the plan file changed) and updates the
  /// timeline's marks; `false` without a timeline to read them from.
  @discardableResult
  public func reload(_ plan: Plan) -> Bool {
    guard let timeline else { return false }
    marking.lock()
    defer { marking.unlock() }
    let changes = monitor.reload(plan) { try? timeline.record(at: $0) }
    for change in changes { timeline.setPlanViolations(change.count, at: change.position) }
    return true
  }
}
