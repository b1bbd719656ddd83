import TaggingPlan
import TagscopeRecording
import TagscopeTimeline

/// Checks records against a tagging plan in arrival order; with a timeline, each record's
/// violation count goes into its index, so the debugger's `[`/`]` and ✗ marks see it.
public final class PlanChecker: Sendable {
  /// The results so far (coverage, violations by position, counts), readable from any thread.
  public let monitor: PlanMonitor
  private let timeline: Timeline?

  /// A checker for `plan`, marking `timeline` when given.
  public init(plan: Plan, timeline: Timeline? = nil) {
    monitor = PlanMonitor(plan: plan)
    self.timeline = timeline
  }

  /// Checks the record at position `position` and returns its violations.
  @discardableResult
  public func check(_ record: Record, at position: Int) -> [PlanViolation] {
    let found = monitor.check(record, at: position)
    if !found.isEmpty { timeline?.setPlanViolations(found.count, at: position) }
    return found
  }
}
