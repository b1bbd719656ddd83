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

  /// `· action playPodcast on downloads: firebase · plan line 72` for each expectation not yet
  /// seen, then `✓ … · 12×` for those seen.
  public func checklist() -> [String] {
    let coverage = monitor.coverage
    var missing: [String] = []
    var seen: [String] = []
    for (index, item) in coverage.items.enumerated() {
      let count = coverage.counts[index]
      if count == 0 {
        missing.append("· \(item.id) · not yet seen · plan line \(item.location.line)")
      } else {
        seen.append("✓ \(item.id) · \(count)× · plan line \(item.location.line)")
      }
    }
    return ["\(coverage.summary): \(missing.count) not yet seen"] + missing + seen
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
