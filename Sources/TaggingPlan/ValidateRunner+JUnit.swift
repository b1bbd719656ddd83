import Foundation

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` for the JUnit report,
  /// keeping no violation (see
  /// ``runJUnit(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
  public static func runJUnit(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    switch loadPlan(planPath) {
    case .success(let plan):
      return runJUnit(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated)
    case .failure(let error):
      return Outcome(exitCode: 2, diagnostics: error.message, report: nil, format: .junit, failOn: failOn)
    }
  }

  /// Runs the validation of `recordings` against `plan` for the JUnit report: the same outcome
  /// and bytes as ``run(plan:recordings:format:failOn:failOnUnreadable:bySource:generated:)`` with
  /// `.junit`, but each violation is let go once counted, so memory holds the coverage, a few
  /// messages per planned item and the unreadable lines whatever the number of violations. The
  /// outcome's report has no violations.
  public static func runJUnit(
    plan: Plan, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    guard !recordings.isEmpty else {
      return Outcome(
        exitCode: 2, diagnostics: "no recording given\n", report: nil, format: .junit, failOn: failOn)
    }
    var diagnostics = ""
    let note = { (line: String) in diagnostics += line + "\n" }
    var opened: Opened
    do { opened = try open(recordings, note: note) } catch {
      return Outcome(
        exitCode: 2, diagnostics: diagnostics + "\(error)\n", report: nil, format: .junit, failOn: failOn)
    }
    let headers = opened.headers
    var lines = LineValidator(plan: plan, bySource: bySource)
    var totals = RunTotals()
    var tally = JUnitTally(planned: lines.validator.coverage.planned, failOn: failOn)
    scan(recordings, opened: &opened, lines: &lines, totals: &totals, note: note) { site, found in
      for violation in found { tally.add(violation, at: site) }
      found.removeAll(keepingCapacity: true)
    }
    var report = totals.report(plan: plan, violations: [], lines: lines, files: recordings)
    report.meta = ReportMeta(generated: generated ?? Date(), plan: plan, recordings: headers)
    var outcome = outcome(
      report, fails: tally.failing > 0, failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
      format: .junit, failOn: failOn)
    outcome.rendered = JUnitReport.render(report, tally: tally)
    return outcome
  }
}
