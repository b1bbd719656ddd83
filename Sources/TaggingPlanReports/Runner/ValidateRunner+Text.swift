import Foundation
import TaggingPlan

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` for the text report,
  /// keeping no violation (see ``runText(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
  public static func runText(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    withPlan(planPath, format: .text, failOn: failOn) { plan in
      runText(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated)
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
    var tally = TextTally()
    let run = tallying(
      plan: plan, lines: LineValidator(plan: plan, bySource: bySource), recordings: recordings, format: .text,
      failOn: failOn, generated: generated
    ) { tally.add($0, at: $1) }
    switch run {
    case .failed(let outcome): return outcome
    case .scanned(let report, let diagnostics):
      var outcome = outcome(
        report, fails: tally.fails(at: failOn), failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
        format: .text, failOn: failOn)
      outcome.textTally = tally
      return outcome
    }
  }
}
