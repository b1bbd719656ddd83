import Foundation

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` for the text report,
  /// keeping no violation (see ``runText(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
  public static func runText(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    switch loadPlan(planPath) {
    case .success(let plan):
      return runText(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated)
    case .failure(let error):
      return Outcome(exitCode: 2, diagnostics: error.message, report: nil, format: .text, failOn: failOn)
    }
  }

  /// Runs the validation of `recordings` against `plan` for the text report: the same outcome and
  /// bytes as ``run(plan:recordings:format:failOn:failOnUnreadable:bySource:generated:)`` with
  /// `.text`, but each violation is let go once tallied, so memory holds the coverage, a few
  /// examples per group of violations and the unreadable lines whatever the number of violations.
  /// The outcome's report has no violations.
  public static func runText(
    plan: Plan, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    guard !recordings.isEmpty else {
      return Outcome(
        exitCode: 2, diagnostics: "no recording given\n", report: nil, format: .text, failOn: failOn)
    }
    var diagnostics = ""
    let note = { (line: String) in diagnostics += line + "\n" }
    var opened: Opened
    do { opened = try open(recordings, note: note) } catch {
      return Outcome(
        exitCode: 2, diagnostics: diagnostics + "\(error)\n", report: nil, format: .text, failOn: failOn)
    }
    let headers = opened.headers
    var lines = LineValidator(plan: plan, bySource: bySource)
    var totals = RunTotals()
    var tally = TextTally()
    scan(recordings, opened: &opened, lines: &lines, totals: &totals, note: note) { site, found in
      for violation in found { tally.add(violation, at: site) }
      found.removeAll(keepingCapacity: true)
    }
    var report = totals.report(plan: plan, violations: [], lines: lines, files: recordings)
    report.meta = ReportMeta(generated: generated ?? Date(), plan: plan, recordings: headers)
    var outcome = outcome(
      report, fails: tally.fails(at: failOn), failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
      format: .text, failOn: failOn)
    outcome.textTally = tally
    return outcome
  }
}
