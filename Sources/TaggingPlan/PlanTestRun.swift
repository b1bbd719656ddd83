import AnalyticsHub
import Foundation
import TagscopeRecording

/// Checks, in an app's unit tests, the tags sent through the app's real hub and mappings against
/// its tagging plan, without writing a recording.
///
/// Attach it to the hub with ``init(plan:rules:observing:)`` (or `hub.addObserver(_:)`), or hand it
/// dispatches (a `DispatchRecorder`'s) with `check(_:)`. Each dispatch becomes the record an
/// inspector would write (`Record(dispatch:)`) and goes through the same validator as `tagscope
/// validate`, so the violations carry the same messages, naming plan lines. Then:
/// ``requireNoViolations(failOn:requireFinishedFunnels:)`` (the tags broke no expectation), `requireCovered(_:)` and
/// ``requireCovered(tag:screen:provider:section:)`` (these planned expectations were met by this
/// run), ``uncovered`` (what is not yet). The `require…` methods throw a ``PlanTestFailure``
/// listing what failed, for XCTest and Swift Testing alike; `TaggingPlanTesting` wraps them as
/// `XCTAssertConformsToPlan` and `XCTAssertCovers`.
///
/// The hub delivers to observers after `send` returns, possibly on another thread: a run made
/// with ``init(plan:rules:observing:)`` flushes that hub before every read, so it sees every tag sent
/// before; otherwise call `hub.flush()` first. Do not read a run from inside an adapter or an
/// observer (the flush would wait for itself).
public final class PlanTestRun: HubObserver, @unchecked Sendable {
  /// One checked tag.
  public struct Check: Sendable, Hashable {
    /// The tag's record, as an inspector records it.
    public var record: Record
    /// Its violations (none when it conforms).
    public var violations: [PlanViolation]
    /// The coverage items it covered (indexes into the plan's `coverageItems`).
    public var covered: [Int]
  }

  /// The plan the tags are checked against.
  public let plan: Plan
  private let lock = NSLock()
  private var state: ValidationState
  private var checked: [Check] = []
  private var seen: Coverage
  private let flushObserved: @Sendable () -> Void

  /// A run with nothing checked yet; attach it with `hub.addObserver(run)` or pass it dispatches.
  /// Recorded calls are checked with `rules`: the rule sets of the providers the app links
  /// (`[FirebaseRules.self]`), on top of the rule violations the hub recorded.
  public init(plan: Plan, rules: ProviderRuleChecks) {
    self.plan = plan
    seen = Coverage(items: plan.coverageItems)
    state = ValidationState(rules: rules)
    flushObserved = {}
  }

  /// A run observing `hub` from now on; it flushes the hub before every read. Recorded calls are
  /// checked with `rules`, as with ``init(plan:rules:)``.
  public init<T: Taxonomy>(plan: Plan, rules: ProviderRuleChecks, observing hub: AnalyticsHub<T>) {
    self.plan = plan
    seen = Coverage(items: plan.coverageItems)
    state = ValidationState(rules: rules)
    flushObserved = { [weak hub] in hub?.flush() }
    hub.addObserver(self)
  }

  /// Checks each dispatch of the observed hub.
  public func hubDidDispatch(_ dispatch: Dispatch) { check(dispatch) }

  /// Checks one dispatch (a `DispatchRecorder`'s, say) and returns its violations.
  @discardableResult
  public func check(_ dispatch: Dispatch) -> [PlanViolation] { check(Record(dispatch: dispatch)) }

  /// Checks dispatches in order and returns their violations.
  @discardableResult
  public func check(_ dispatches: some Sequence<Dispatch>) -> [PlanViolation] {
    dispatches.flatMap { check($0) }
  }

  /// Checks one record (of a recording, or built by hand) and returns its violations.
  @discardableResult
  public func check(_ record: Record) -> [PlanViolation] {
    lock.lock()
    defer { lock.unlock() }
    var marks = Coverage(items: plan.coverageItems)
    let found = PlanValidator.check(record, plan: plan, coverage: &marks, state: &state)
    let covered = marks.counts.indices.filter { marks.counts[$0] > 0 }
    for index in covered { seen.mark(index) }
    checked.append(Check(record: record, violations: found, covered: covered))
    return found
  }

  private func read<Value>(_ body: () -> Value) -> Value {
    flushObserved()
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  // MARK: Results

  /// Every tag checked so far, in order.
  public var checks: [Check] { read { checked } }

  /// Every violation so far, in order.
  public var violations: [PlanViolation] { read { checked.flatMap(\.violations) } }

  /// The violations of one dispatch (by its sequence number); none when it was not checked.
  public func violations(of dispatch: Dispatch) -> [PlanViolation] {
    read { checked.filter { $0.record.seq == dispatch.seq }.flatMap(\.violations) }
  }

  /// What the tags checked so far covered.
  public var coverage: Coverage { read { seen } }

  /// The planned items no tag has covered yet, in plan order.
  public var uncovered: [CoverageItem] { read { seen.missing } }

  /// The funnels the tags checked so far started and did not finish, per device and session, in
  /// the order of their last step (what `tagscope validate` notes at the end of a recording).
  public var unfinishedFunnels: [PlanTestUnfinishedFunnel] {
    read { state.journeys.unfinished(plan: plan).map(PlanTestUnfinishedFunnel.init) }
  }

  /// The plan's coverage items about `tag` (and `provider`, `section` when given; on `screen` when
  /// given, counting items for any screen): the expectations ``requireCovered(tag:screen:provider:section:)``
  /// checks. The tag's own item is included when no provider is given.
  public func items(tag: String, screen: String? = nil, provider: String? = nil, section: PlanSection? = nil)
    -> [CoverageItem]
  {
    itemIndexes(tag: tag, screen: screen, provider: provider, section: section).map { plan.coverageItems[$0] }
  }

  private func itemIndexes(tag: String, screen: String?, provider: String?, section: PlanSection?) -> [Int] {
    plan.coverageItems.indices.filter { index in
      let item = plan.coverageItems[index]
      guard item.tag == tag, section.map({ $0 == item.section }) ?? true else { return false }
      if let provider, item.provider != provider { return false }
      if let screen, let itemScreen = item.screen, itemScreen != screen { return false }
      return true
    }
  }

  /// Whether a checked tag covered item `index`, on `screen` when given.
  private func isCovered(_ index: Int, on screen: String?) -> Bool {
    guard let screen else { return seen.isSeen(index) }
    return checked.contains { $0.covered.contains(index) && $0.record.context.screen == screen }
  }

  // MARK: Requirements

  /// Throws a ``PlanTestFailure`` listing every violation at or above `failOn` (by default every
  /// violation, warnings included), each with its record, rule, plan line and message. With
  /// `requireFinishedFunnels` (a test that plays whole journeys), a funnel started and not
  /// finished (``unfinishedFunnels``) fails it too, listed after the violations.
  public func requireNoViolations(failOn: Severity = .warning, requireFinishedFunnels: Bool = false)
    throws(PlanTestFailure)
  {
    let found = violations.filter { $0.severity >= failOn }
    let unfinished = requireFinishedFunnels ? unfinishedFunnels : []
    if !found.isEmpty || !unfinished.isEmpty {
      throw PlanTestFailure(plan: plan, violations: found, unfinishedFunnels: unfinished)
    }
  }

  /// Throws a ``PlanTestFailure`` listing the violations of `dispatch` at or above `failOn`, or
  /// saying that it was not checked.
  public func requireNoViolations(of dispatch: Dispatch, failOn: Severity = .warning) throws(PlanTestFailure)
  {
    let (wasChecked, found) = read {
      let matching = checked.filter { $0.record.seq == dispatch.seq }
      return (!matching.isEmpty, matching.flatMap(\.violations).filter { $0.severity >= failOn })
    }
    guard wasChecked else {
      throw PlanTestFailure(
        plan: plan, unknown: ["#\(dispatch.seq) \(dispatch.name) was not checked by this run"])
    }
    if !found.isEmpty { throw PlanTestFailure(plan: plan, violations: found) }
  }

  /// Throws a ``PlanTestFailure`` unless each coverage item `id` (`action playPodcast on favorites:
  /// firebase`, as ``CoverageItem/id`` and `tagscope validate` name them) was covered; an id the
  /// plan does not have fails too.
  public func requireCovered(_ ids: [String]) throws(PlanTestFailure) {
    let (missing, unknown) = read {
      var missing: [CoverageItem] = []
      var unknown: [String] = []
      for id in ids {
        guard let index = plan.coverageItems.firstIndex(where: { $0.id == id }) else {
          let nearest = NameSimilarity.nearest(to: id, among: plan.coverageItems.map(\.id))
          unknown.append(
            "the plan has no coverage item '\(id)'" + (nearest.map { " (did you mean '\($0)'?)" } ?? ""))
          continue
        }
        if !seen.isSeen(index) { missing.append(plan.coverageItems[index]) }
      }
      return (missing, unknown)
    }
    if !missing.isEmpty || !unknown.isEmpty {
      throw PlanTestFailure(plan: plan, uncovered: missing, unknown: unknown)
    }
  }

  /// `requireCovered(_:)` for a few ids.
  public func requireCovered(_ ids: String...) throws(PlanTestFailure) { try requireCovered(ids) }

  /// Throws a ``PlanTestFailure`` unless everything the plan expects of `tag` (of `provider` only,
  /// in `section` only, when given) was covered, on `screen` when given: by a tag on that screen.
  /// A query matching no planned item fails too, so a typo cannot pass.
  public func requireCovered(
    tag: String, screen: String? = nil, provider: String? = nil, section: PlanSection? = nil
  ) throws(PlanTestFailure) {
    let (missing, matched) = read {
      let indexes = itemIndexes(tag: tag, screen: screen, provider: provider, section: section)
      return (indexes.filter { !isCovered($0, on: screen) }.map { plan.coverageItems[$0] }, !indexes.isEmpty)
    }
    guard matched else {
      var query = "tag \(tag)"
      if let section { query = "\(section.noun) \(tag)" }
      if let screen { query += " on \(screen)" }
      if let provider { query += ": \(provider)" }
      let tags = Array(Set(plan.coverageItems.map(\.tag))).sorted()
      let nearest = tags.contains(tag) ? nil : NameSimilarity.nearest(to: tag, among: tags)
      throw PlanTestFailure(
        plan: plan,
        unknown: [
          "the plan has no coverage item for \(query)" + (nearest.map { " (did you mean tag \($0)?)" } ?? "")
        ])
    }
    if !missing.isEmpty {
      throw PlanTestFailure(plan: plan, uncovered: missing, screen: screen)
    }
  }

  /// Throws a ``PlanTestFailure`` listing every planned item not covered yet.
  public func requireFullCoverage() throws(PlanTestFailure) {
    let missing = uncovered
    if !missing.isEmpty { throw PlanTestFailure(plan: plan, uncovered: missing) }
  }

  /// Forgets what was checked so far (the plan stays).
  public func removeAll() {
    flushObserved()
    lock.lock()
    defer { lock.unlock() }
    checked.removeAll()
    seen = Coverage(items: plan.coverageItems)
    state = ValidationState(rules: state.rules)
  }
}

extension Plan {
  /// The violations of one dispatch against this plan (its calls checked with `rules`): a one-off
  /// check, without coverage.
  public func violations(of dispatch: Dispatch, rules: ProviderRuleChecks) -> [PlanViolation] {
    var coverage = Coverage(items: coverageItems)
    return PlanValidator.check(Record(dispatch: dispatch), plan: self, coverage: &coverage, rules: rules)
  }
}
