import Foundation
import TagscopeRecording

/// The one plan check of a live session (or of a replay): records are checked once, in arrival
/// order, and the header, the Providers pane, the violation marks, the coverage checklist and the
/// query API all read the results from any thread.
///
/// Positions are the session's record positions (the timeline's). Two coverages come out of the
/// same checks: the whole session's (the debugger's) and the current *segment*'s, from the latest
/// ``startSegment(at:)`` (the query API's reset) on. A plan reload (``reload(_:record:progress:)``)
/// re-checks the records so far without holding the lock, then swaps the results in one step, so
/// every reader moves to the new plan at once; it starts the journeys afresh at each segment's
/// start, as the checks it replaces did.
public final class PlanMonitor: @unchecked Sendable {
  /// What the checks found so far against one plan.
  private struct Results {
    let plan: Plan
    var validator: PlanValidator
    var segment: Coverage
    var segmentStart: Int
    var byPosition: [Int: [PlanViolation]] = [:]
    /// The positions with violations, ascending.
    var positions: [Int] = []
    var errors = 0
    var warnings = 0
    var marks: [CoverageMark] = []
    /// The segment starts a reload's re-check has passed (each a new app launch).
    var startsPassed = 0

    init(plan: Plan, rules: ProviderRuleChecks, segmentStart: Int) {
      self.plan = plan
      validator = PlanValidator(plan: plan, rules: rules)
      segment = Coverage(items: plan.coverageItems)
      self.segmentStart = segmentStart
    }

    mutating func check(_ record: Record, at position: Int) -> [PlanViolation] {
      marks.removeAll(keepingCapacity: true)
      let found = validator.validate(record, marks: &marks)
      if position >= segmentStart { segment.apply(marks) }
      if !found.isEmpty {
        byPosition[position, default: []].append(contentsOf: found)
        if positions.last.map({ $0 < position }) ?? true { positions.append(position) }
        for violation in found {
          if violation.severity == .error { errors += 1 } else { warnings += 1 }
        }
      }
      return found
    }

    /// Re-checks the record at `position` (`nil`: none there), after starting a new app launch
    /// for each of `starts` (ascending) it reaches.
    mutating func recheck(_ record: Record?, at position: Int, starts: [Int]) {
      pass(starts, through: position)
      if let record { _ = check(record, at: position) }
    }

    /// Starts a new app launch for each of `starts` (ascending) not passed yet, up to `position`
    /// (all of them when `nil`: the re-check is over, a later record is in the latest launch).
    mutating func pass(_ starts: [Int], through position: Int? = nil) {
      while startsPassed < starts.count, position.map({ starts[startsPassed] <= $0 }) ?? true {
        validator.startAppLaunch()
        startsPassed += 1
      }
    }

    /// Follows a segment started while a reload re-checked the records before it: its coverage
    /// counts from `start`, past every record re-checked so far.
    mutating func follow(segmentStart start: Int) {
      guard start != segmentStart else { return }
      segmentStart = start
      segment = Coverage(items: plan.coverageItems)
    }
  }

  private let lock = NSLock()
  private var results: Results
  /// Records at positions below it were checked.
  private var checkedEnd = 0
  /// Called under the lock with a position and its new violation count, for each checked record
  /// with violations and each record a reload changed: the timeline's ✗ marks.
  private let marking: (@Sendable (_ position: Int, _ count: Int) -> Void)?
  /// The reload under way: records re-checked and to re-check.
  private var reloading: (done: Int, total: Int)?
  /// Bumped by each reload; a reload overtaken by a newer one stops.
  private var reloadGeneration = 0
  /// The positions where segments started, ascending: each started the journeys afresh.
  private var segmentStarts: [Int] = []

  /// The plan being checked.
  public var plan: Plan {
    lock.lock()
    defer { lock.unlock() }
    return results.plan
  }

  /// A monitor with nothing checked yet, checking recorded calls with `rules` (a reload keeps
  /// them); `marking` (called under its lock) receives each record's violation count as it changes.
  public init(
    plan: Plan, rules: ProviderRuleChecks, marking: (@Sendable (_ position: Int, _ count: Int) -> Void)? = nil
  ) {
    results = Results(plan: plan, rules: rules, segmentStart: 0)
    self.marking = marking
  }

  /// Checks the record at `position` and returns its violations (usually none).
  @discardableResult
  public func check(_ record: Record, at position: Int) -> [PlanViolation] {
    lock.lock()
    defer { lock.unlock() }
    checkedEnd = max(checkedEnd, position + 1)
    let found = results.check(record, at: position)
    if !found.isEmpty { marking?(position, results.byPosition[position]?.count ?? found.count) }
    return found
  }

  /// Starts a new segment at `position`: its coverage and violations count from there, and the
  /// journey rules start afresh (a new app launch: a `once` record of the new segment repeats
  /// none before it).
  public func startSegment(at position: Int) {
    lock.lock()
    defer { lock.unlock() }
    results.validator.startAppLaunch()
    results.segmentStart = position
    segmentStarts.insert(position, at: segmentStarts.firstIndex { $0 > position } ?? segmentStarts.endIndex)
    results.segment = Coverage(items: results.plan.coverageItems)
  }

  /// Checks every record checked so far again, against `plan` (the plan file changed), reading
  /// each with `record`, without holding the lock but for the last few; records checked
  /// meanwhile are checked against it too, and the results are swapped in one step. `progress`
  /// gets the records re-checked and the total now and then. The journeys start afresh at each
  /// segment's start (``startSegment(at:)``), as they did when the records were first checked; a
  /// segment started meanwhile (after the records re-checked so far) is followed. Returns the
  /// positions whose violation count changed, with their new count, or `nil` when a newer reload
  /// overtook this one.
  @discardableResult
  public func reload(
    _ plan: Plan, record: (Int) -> Record?, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
  ) -> [(position: Int, count: Int)]? {
    lock.lock()
    reloadGeneration += 1
    let generation = reloadGeneration
    var fresh = Results(plan: plan, rules: results.validator.rules, segmentStart: results.segmentStart)
    var next = 0
    var end = checkedEnd
    var starts = segmentStarts
    reloading = (0, end)
    lock.unlock()
    // Catch up without the lock until few records are left, then finish under it.
    while end - next > Self.lockedTail {
      while next < end {
        fresh.recheck(record(next), at: next, starts: starts)
        next += 1
        if next % Self.progressInterval == 0 {
          guard setProgress(next, end, generation: generation) else { return nil }
          progress(next, end)
        }
      }
      lock.lock()
      end = checkedEnd
      starts = segmentStarts
      fresh.follow(segmentStart: results.segmentStart)
      lock.unlock()
    }
    lock.lock()
    guard generation == reloadGeneration else {
      lock.unlock()
      return nil
    }
    fresh.follow(segmentStart: results.segmentStart)
    while next < checkedEnd {
      fresh.recheck(record(next), at: next, starts: segmentStarts)
      next += 1
    }
    fresh.pass(segmentStarts)
    var changes: [(position: Int, count: Int)] = []
    for (position, old) in results.byPosition where fresh.byPosition[position]?.count != old.count {
      changes.append((position, fresh.byPosition[position]?.count ?? 0))
    }
    for (position, new) in fresh.byPosition where results.byPosition[position] == nil {
      changes.append((position, new.count))
    }
    changes.sort { $0.position < $1.position }
    results = fresh
    reloading = nil
    for change in changes { marking?(change.position, change.count) }
    lock.unlock()
    progress(next, next)
    return changes
  }

  /// Records re-checked between two progress reports.
  static let progressInterval = 16_384
  /// Records left when a reload takes the lock to finish.
  static let lockedTail = 1_024

  private func setProgress(_ done: Int, _ total: Int, generation: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard generation == reloadGeneration else { return false }
    reloading = (done, max(total, checkedEnd))
    return true
  }

  /// The share of a reload done (0 to 1), while one runs.
  public var reloadProgress: Double? {
    lock.lock()
    defer { lock.unlock() }
    return reloading.map { $0.total > 0 ? Double($0.done) / Double($0.total) : 0 }
  }

  /// The violations of the record at `position`, for the Providers pane.
  public func violations(at position: Int) -> [PlanViolation] {
    lock.lock()
    defer { lock.unlock() }
    return results.byPosition[position] ?? []
  }

  /// The segment's violations in record order, each with its position (the query API's list).
  public var segmentViolations: [(position: Int, violation: PlanViolation)] {
    lock.lock()
    defer { lock.unlock() }
    let positions = results.positions
    var low = 0
    var high = positions.count
    while low < high {
      let mid = (low + high) / 2
      if positions[mid] < results.segmentStart { low = mid + 1 } else { high = mid }
    }
    var found: [(position: Int, violation: PlanViolation)] = []
    for position in positions[low...] {
      for violation in results.byPosition[position] ?? [] { found.append((position, violation)) }
    }
    return found
  }

  /// The coverage so far, for the checklist view (``Coverage/state(at:)`` gives an item's state).
  public var coverage: Coverage {
    lock.lock()
    defer { lock.unlock() }
    return results.validator.coverage
  }

  /// The coverage of the current segment (all of it when no segment was started).
  public var segmentCoverage: Coverage {
    lock.lock()
    defer { lock.unlock() }
    return results.segment
  }

  /// Each coverage item with its state so far, in plan order: what the checklist shows as
  /// `✓ passed`, `✗ failing (wrong-name)`, `⊘ blocked (consent)` or `· not seen`
  /// (``CoverageState/label``).
  public var coverageStates: [(item: CoverageItem, state: CoverageState)] {
    let coverage = self.coverage
    return coverage.items.indices.map { (coverage.items[$0], coverage.state(at: $0)) }
  }

  /// How many coverage items are in each state so far.
  public var coverageCounts: CoverageCounts { coverage.stateCounts }

  /// Violations found so far, by severity.
  public var counts: (errors: Int, warnings: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (results.errors, results.warnings)
  }

  /// `3 errors` (and `, 1 warning` when there are some, and a reload's progress while it runs):
  /// what a narrow header keeps.
  public var errorsText: String {
    lock.lock()
    defer { lock.unlock() }
    var text = CountWords.plural(results.errors, "error")
    if results.warnings > 0 { text += ", \(CountWords.plural(results.warnings, "warning"))" }
    return text + reloadingText
  }

  /// ` · re-checking 45%` while a reload runs. Under the lock.
  private var reloadingText: String {
    guard let reloading else { return "" }
    return " · re-checking \(reloading.total > 0 ? reloading.done * 100 / reloading.total : 0)%"
  }

  /// `plan Podcasts v3: 30 passed, 4 failing, 7 not seen, 3 errors`, for the header (blocked
  /// items and warnings named when there are some, and a reload's progress while it runs).
  public var headerText: String {
    lock.lock()
    defer { lock.unlock() }
    var text =
      "plan \(results.plan.title): \(results.validator.coverage.shortSummary), "
      + CountWords.plural(results.errors, "error")
    if results.warnings > 0 { text += ", \(CountWords.plural(results.warnings, "warning"))" }
    return text + reloadingText
  }
}
