import Foundation
import TaggingPlan

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` for the HTML report,
  /// keeping no violation (see
  /// ``runHTML(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
  public static func runHTML(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil, delivery: DeliverySection? = nil
  ) -> Outcome {
    withPlan(planPath, format: .html, failOn: failOn) { plan in
      runHTML(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated, delivery: delivery)
    }
  }

  /// Runs the validation of `recordings` against `plan` for the HTML report: the same outcome and
  /// bytes as ``run(plan:recordings:format:failOn:failOnUnreadable:bySource:generated:)`` with
  /// `.html`, but each violation is let go once tallied (`HTMLTally`), so memory holds the
  /// coverage, the groups shown and a few bytes per other group whatever the number of
  /// violations. The outcome's report has no violations. The recordings are read once, standard
  /// input included.
  public static func runHTML(
    plan: Plan, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil, delivery: DeliverySection? = nil
  ) -> Outcome {
    var tally = HTMLTally()
    let run = tallying(
      plan: plan, lines: LineValidator(plan: plan, bySource: bySource), recordings: recordings, format: .html,
      failOn: failOn, generated: generated
    ) { tally.add($0, at: $1) }
    switch run {
    case .failed(let outcome): return outcome
    case .scanned(var report, let diagnostics):
      report.delivery = delivery
      var outcome = outcome(
        report, fails: tally.fails(at: failOn), failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
        format: .html, failOn: failOn)
      outcome.rendered = HTMLReport.render(report, tally: tally, failOn: failOn)
      return outcome
    }
  }
}
