import Foundation
import TagscopeRecording
import TagscopeTimeline

/// A live validation for the debugger: records are checked as they arrive (live or while a
/// recording is indexed), and the header, the Providers pane, the violation marks and the
/// coverage checklist read from it from any thread.
///
/// Positions are the timeline's record positions; pair it with `Timeline.setPlanViolations`.
public final class PlanMonitor: @unchecked Sendable {
  /// The plan being checked.
  public let plan: Plan
  private let lock = NSLock()
  private var validator: PlanValidator
  private var byPosition: [Int: [PlanViolation]] = [:]
  private var errors = 0
  private var warnings = 0

  /// A monitor with nothing checked yet.
  public init(plan: Plan) {
    self.plan = plan
    validator = PlanValidator(plan: plan)
  }

  /// Checks the record at timeline `position` and returns its violations (usually none).
  @discardableResult
  public func check(_ record: Record, at position: Int) -> [PlanViolation] {
    lock.lock()
    defer { lock.unlock() }
    let found = validator.validate(record)
    if !found.isEmpty {
      byPosition[position, default: []].append(contentsOf: found)
      for violation in found {
        if violation.severity == .error { errors += 1 } else { warnings += 1 }
      }
    }
    return found
  }

  /// The violations of the record at `position`, for the Providers pane.
  public func violations(at position: Int) -> [PlanViolation] {
    lock.lock()
    defer { lock.unlock() }
    return byPosition[position] ?? []
  }

  /// The coverage so far, for the checklist view (``Coverage/state(at:)`` gives an item's state).
  public var coverage: Coverage {
    lock.lock()
    defer { lock.unlock() }
    return validator.coverage
  }

  /// Each coverage item with its state so far, in plan order: what the checklist shows as
  /// `✓ passed`, `✗ failing (wrong-name)`, `⊘ blocked (consent)` or `· not seen`
  /// (``CoverageState/label``).
  public var coverageStates: [(item: CoverageItem, state: CoverageState)] {
    lock.lock()
    defer { lock.unlock() }
    let coverage = validator.coverage
    return coverage.items.indices.map { (coverage.items[$0], coverage.state(at: $0)) }
  }

  /// How many coverage items are in each state so far.
  public var coverageCounts: CoverageCounts {
    lock.lock()
    defer { lock.unlock() }
    return validator.coverage.stateCounts
  }

  /// Violations found so far, by severity.
  public var counts: (errors: Int, warnings: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (errors, warnings)
  }

  /// `3 errors` (and `, 1 warning` when there are some): what a narrow header keeps.
  public var errorsText: String {
    lock.lock()
    defer { lock.unlock() }
    var text = TextReport.plural(errors, "error")
    if warnings > 0 { text += ", \(TextReport.plural(warnings, "warning"))" }
    return text
  }

  /// `plan Podcasts v3: 30 passed, 4 failing, 7 not seen, 3 errors`, for the header (blocked
  /// items and warnings named when there are some).
  public var headerText: String {
    lock.lock()
    defer { lock.unlock() }
    var text = "plan \(plan.title): \(validator.coverage.shortSummary), \(TextReport.plural(errors, "error"))"
    if warnings > 0 { text += ", \(TextReport.plural(warnings, "warning"))" }
    return text
  }
}
