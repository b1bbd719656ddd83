import Foundation
import TaggingPlan

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` for the JUnit report,
  /// keeping no violation (see
  /// ``runJUnit(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
  public static func runJUnit(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    withPlan(planPath, format: .junit, failOn: failOn) { plan in
      runJUnit(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated)
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
    let lines = LineValidator(plan: plan, bySource: bySource)
    var tally = JUnitTally(planned: lines.validator.coverage.planned, failOn: failOn)
    let run = tallying(
      plan: plan, lines: lines, recordings: recordings, format: .junit, failOn: failOn, generated: generated
    ) { tally.add($0, at: $1) }
    switch run {
    case .failed(let outcome): return outcome
    case .scanned(let report, let diagnostics):
      var outcome = outcome(
        report, fails: tally.failing > 0, failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
        format: .junit, failOn: failOn)
      outcome.rendered = JUnitReport.render(report, tally: tally)
      return outcome
    }
  }
}
