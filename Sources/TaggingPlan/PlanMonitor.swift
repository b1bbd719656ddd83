import Foundation
import TagscopeRecording
import TagscopeTimeline

/// A live validation for the debugger: records are checked as they arrive (live or while a
/// recording is indexed), and the header, the Providers pane, the violation marks and the
/// coverage checklist read from it from any thread.
///
/// Positions are the timeline's record positions; pair it with `Timeline.setPlanViolations`.
public final class PlanMonitor: @unchecked Sendable {
  /// What the checks found so far against one plan.
  private struct Results {
    let plan: Plan
    var validator: PlanValidator
    var byPosition: [Int: [PlanViolation]] = [:]
    var errors = 0
    var warnings = 0

    init(plan: Plan) {
      self.plan = plan
      validator = PlanValidator(plan: plan)
    }

    mutating func check(_ record: Record, at position: Int) -> [PlanViolation] {
      let found = validator.validate(record)
      if !found.isEmpty {
        byPosition[position, default: []].append(contentsOf: found)
        for violation in found {
          if violation.severity == .error { errors += 1 } else { warnings += 1 }
        }
      }
      return found
    }
  }

  private let lock = NSLock()
  private var results: Results
  /// Records at positions below it were checked.
  private var checkedEnd = 0

  /// The plan being checked.
  public var plan: Plan {
    lock.lock()
    defer { lock.unlock() }
    return results.plan
  }

  /// A monitor with nothing checked yet.
  public init(plan: Plan) {
    results = Results(plan: plan)
  }

  /// Checks the record at timeline `position` and returns its violations (usually none).
  @discardableResult
  public func check(_ record: Record, at position: Int) -> [PlanViolation] {
    lock.lock()
    defer { lock.unlock() }
    checkedEnd = max(checkedEnd, position + 1)
    return results.check(record, at: position)
  }

  /// Checks every record checked so far again, against `plan` (the plan file changed), reading
  /// each with `record`; records checked meanwhile are checked against it too. Returns the
  /// positions whose violation count changed, with their new count.
  public func reload(_ plan: Plan, record: (Int) -> Record?) -> [(position: Int, count: Int)] {
    lock.lock()
    let snapshot = checkedEnd
    lock.unlock()
    var fresh = Results(plan: plan)
    for position in 0..<snapshot {
      if let found = record(position) { _ = fresh.check(found, at: position) }
    }
    lock.lock()
    defer { lock.unlock() }
    for position in snapshot..<checkedEnd {
      if let found = record(position) { _ = fresh.check(found, at: position) }
    }
    var changes: [(position: Int, count: Int)] = []
    for (position, old) in results.byPosition where fresh.byPosition[position]?.count != old.count {
      changes.append((position, fresh.byPosition[position]?.count ?? 0))
    }
    for (position, new) in fresh.byPosition where results.byPosition[position] == nil {
      changes.append((position, new.count))
    }
    results = fresh
    return changes.sorted { $0.position < $1.position }
  }

  /// The violations of the record at `position`, for the Providers pane.
  public func violations(at position: Int) -> [PlanViolation] {
    lock.lock()
    defer { lock.unlock() }
    return results.byPosition[position] ?? []
  }

  /// The coverage so far, for the checklist view (``Coverage/state(at:)`` gives an item's state).
  public var coverage: Coverage {
    lock.lock()
    defer { lock.unlock() }
    return results.validator.coverage
  }

  /// Each coverage item with its state so far, in plan order: what the checklist shows as
  /// `✓ passed`, `✗ failing (wrong-name)`, `⊘ blocked (consent)` or `· not seen`
  /// (``CoverageState/label``).
  public var coverageStates: [(item: CoverageItem, state: CoverageState)] {
    lock.lock()
    defer { lock.unlock() }
    let coverage = results.validator.coverage
    return coverage.items.indices.map { (coverage.items[$0], coverage.state(at: $0)) }
  }

  /// How many coverage items are in each state so far.
  public var coverageCounts: CoverageCounts {
    lock.lock()
    defer { lock.unlock() }
    return results.validator.coverage.stateCounts
  }

  /// Violations found so far, by severity.
  public var counts: (errors: Int, warnings: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (results.errors, results.warnings)
  }

  /// `3 errors` (and `, 1 warning` when there are some): what a narrow header keeps.
  public var errorsText: String {
    lock.lock()
    defer { lock.unlock() }
    var text = TextReport.plural(results.errors, "error")
    if results.warnings > 0 { text += ", \(TextReport.plural(results.warnings, "warning"))" }
    return text
  }

  /// `plan Podcasts v3: 30 passed, 4 failing, 7 not seen, 3 errors`, for the header (blocked
  /// items and warnings named when there are some).
  public var headerText: String {
    lock.lock()
    defer { lock.unlock() }
    var text =
      "plan \(results.plan.title): \(results.validator.coverage.shortSummary), "
      + TextReport.plural(results.errors, "error")
    if results.warnings > 0 { text += ", \(TextReport.plural(results.warnings, "warning"))" }
    return text
  }
}
