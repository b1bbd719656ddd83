import PodcastDemo
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import TagscopeUI

/// The debugger reads the plan results (header, Providers pane, coverage checklist) from the
/// checker the live session or the replay check fills.
extension PlanChecker: PlanFeed {
  /// Loads the plan at `path`, or the demo's own plan when `path` is nil and `demo` is set.
  static func loadPlan(path: String?, demo: Bool) throws -> Plan? {
    if let path { return try PlanLoader.load(contentsOf: path) }
    return demo ? try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo plan") : nil
  }

  public var headerText: String { monitor.headerText }

  public var errorsText: String { monitor.errorsText }

  /// The summary, then one item per expectation with its state — failing first, then blocked,
  /// not seen, passed (`✗ failing (wrong-name) · action playPodcast on favorites: firebase · 3× ·
  /// plan line 71`) — each with the filter that lists the records covering it.
  public func checklist() -> [ChecklistItem] {
    let coverage = monitor.coverage
    var byState: [CoverageState.Kind: [ChecklistItem]] = [:]
    for (index, item) in coverage.items.enumerated() {
      let state = coverage.state(at: index)
      let count = coverage.counts[index]
      var text = "\(state.label) · \(item.id)"
      if count > 0 { text += " · \(count)×" }
      text += " · plan line \(item.location.line)"
      byState[state.kind, default: []].append(ChecklistItem(text: text, filter: item.debuggerFilter))
    }
    let order: [CoverageState.Kind] = [.failing, .blocked, .notSeen, .passed]
    return [ChecklistItem(text: "\(coverage.summary) · enter lists the records of an item")]
      + order.flatMap { byState[$0] ?? [] }
  }

  /// The plan violations of the record at `index`, expected beside got.
  public func comparisons(at index: Int) -> [Comparison] {
    monitor.violations(at: index).map {
      Comparison(rule: "plan." + $0.rule.rawValue, message: $0.message, expectation: $0.comparison)
    }
  }

  public func findings(at index: Int) -> [PlanFinding] {
    monitor.violations(at: index).map {
      PlanFinding(
        provider: $0.provider,
        violation: RecordViolation(
          rule: "plan." + $0.rule.rawValue, message: $0.message, consequence: $0.severity.rawValue))
    }
  }
}
