import Foundation
import TaggingPlan

extension ValidateRunner {
  /// A run whose violations are let go once tallied (``runJUnit(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``,
  /// ``runText(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``,
  /// ``runHTML(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``): its report holds
  /// no violations, or the outcome of a run that could not start.
  enum TalliedRun {
    case scanned(report: ValidationReport, diagnostics: String)
    case failed(Outcome)
  }

  /// Loads the plan at `planPath` and runs `run` with it, or the outcome of a plan that does not
  /// load, in `format`.
  static func withPlan(
    _ planPath: String, format: ReportFormat, failOn: Severity, run: (Plan) -> Outcome
  ) -> Outcome {
    switch loadPlan(planPath) {
    case .success(let plan): return run(plan)
    case .failure(let error):
      return Outcome(exitCode: 2, diagnostics: error.message, report: nil, format: format, failOn: failOn)
    }
  }

  /// Opens and scans `recordings` against `plan` with `lines` (made for `plan`), handing each
  /// violation found to `tally` with its record's site (a record's violations one after the
  /// other, its site's `firstViolation` counted over the run) and keeping none.
  static func tallying(
    plan: Plan, lines: LineValidator, recordings: [String], format: ReportFormat, failOn: Severity,
    generated: Date?, tally: (PlanViolation, RecordSite) -> Void
  ) -> TalliedRun {
    guard !recordings.isEmpty else {
      return .failed(
        Outcome(exitCode: 2, diagnostics: "no recording given\n", report: nil, format: format, failOn: failOn)
      )
    }
    var diagnostics = ""
    let note = { (line: String) in diagnostics += line + "\n" }
    var opened: Opened
    do { opened = try open(recordings, note: note) } catch {
      return .failed(
        Outcome(
          exitCode: 2, diagnostics: diagnostics + "\(error)\n", report: nil, format: format, failOn: failOn))
    }
    let headers = opened.headers
    var lines = lines
    var totals = RunTotals()
    // Each site's first violation is its index in the run, as a run keeping them has it: two
    // records at one place (a file given twice) stay two.
    var handed = 0
    scan(recordings, opened: &opened, lines: &lines, totals: &totals, note: note) { site, found in
      var site = site
      site.firstViolation = handed
      handed += found.count
      for violation in found { tally(violation, site) }
      found.removeAll(keepingCapacity: true)
    }
    var report = totals.report(plan: plan, violations: [], lines: lines, files: recordings)
    report.meta = ReportMeta(generated: generated ?? Date(), plan: plan, recordings: headers)
    return .scanned(report: report, diagnostics: diagnostics)
  }
}
