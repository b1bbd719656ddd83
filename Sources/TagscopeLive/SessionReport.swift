import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import TagscopeTimeline

/// The report of a whole `listen` session, as `tagscope validate` would give it: every record the
/// checker saw (its monitor's violations, in record order, and coverage), with per-source totals
/// from the timeline. The records' places in a recording are not known (file and line are null).
public enum SessionReport {
  /// The report of the records `checker` checked, stored in `timeline`.
  public static func make(checker: PlanChecker, timeline: Timeline) -> ValidationReport {
    let monitor = checker.monitor
    let count = timeline.count
    var violations: [PlanViolation] = []
    var totals: [String?: SourceTotals] = [:]
    var order: [String?] = []
    for statistics in timeline.sourceStatistics() {
      order.append(statistics.name)
      totals[statistics.name] = SourceTotals(source: statistics.name, records: statistics.records)
    }
    for position in 0..<count {
      let found = monitor.violations(at: position)
      guard !found.isEmpty else { continue }
      violations += found
      let source = try? timeline.summary(at: position).source
      if totals[source] == nil {
        order.append(source)
        totals[source] = SourceTotals(source: source)
      }
      totals[source]?.violations += found.count
    }
    var report = ValidationReport(
      plan: monitor.plan, violations: violations, coverage: monitor.coverage, records: count,
      sources: order.compactMap { totals[$0] })
    report.meta = ReportMeta(generated: Date(), plan: monitor.plan)
    return report
  }

  /// Writes the report as JUnit to `junitPath` and as JSON to `jsonPath` (each when given);
  /// returns a sentence per file that could not be written.
  public static func write(
    _ report: ValidationReport, junitPath: String?, jsonPath: String?, failOn: Severity = .error
  ) -> [String] {
    var failures: [String] = []
    for (format, path) in [(ReportFormat.junit, junitPath), (.json, jsonPath)] {
      guard let path else { continue }
      do {
        try OutputFile.check(path, replacing: true)
        let url = URL(fileURLWithPath: path)
        try Data().write(to: url)  // creates or empties the file, or says why not
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try format.write(report, failOn: failOn, to: handle)
      } catch let refusal as OutputFile.Refusal {
        failures.append("cannot write the \(format.rawValue) report: \(refusal)")
      } catch {
        failures.append("cannot write the \(format.rawValue) report \(path): \(error.localizedDescription)")
      }
    }
    return failures
  }
}
