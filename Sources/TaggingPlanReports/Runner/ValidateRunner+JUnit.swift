import Foundation
import TaggingPlan

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` for the JUnit report,
  /// keeping no violation (see
  /// ``runJUnit(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
  public static func runJUnit(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil, delivery: DeliverySection? = nil
  ) -> Outcome {
    withPlan(planPath, format: .junit, failOn: failOn) { plan in
      runJUnit(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated, delivery: delivery)
    }
  }

  /// Runs the validation of `recordings` against `plan` for the JUnit report: the same outcome
  /// and bytes as ``run(plan:recordings:format:failOn:failOnUnreadable:bySource:generated:)`` with
  /// `.junit`, but each violation is let go once counted, so memory holds the coverage, a few
  /// messages per planned item and the unreadable lines whatever the number of violations. The
  /// outcome's report has no violations.
  public static func runJUnit(
    plan: Plan, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil, delivery: DeliverySection? = nil
  ) -> Outcome {
    let lines = LineValidator(plan: plan, bySource: bySource)
    var tally = JUnitTally(planned: lines.validator.coverage.planned, failOn: failOn)
    let run = tallying(
      plan: plan, lines: lines, recordings: recordings, format: .junit, failOn: failOn, generated: generated
    ) { tally.add($0, at: $1) }
    switch run {
    case .failed(let outcome): return outcome
    case .scanned(var report, let diagnostics):
      report.delivery = delivery
      var outcome = outcome(
        report, fails: tally.failing > 0, failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
        format: .junit, failOn: failOn)
      outcome.rendered = JUnitReport.render(report, tally: tally)
      return outcome
    }
  }
}

extension ValidateRunner {
  /// The JUnit reports of one run per UI test scope (`validate --scope`) as one document: each
  /// report's testsuite named `scope NAME: …`, the `testsuites` totals summed.
  public static func combineJUnit(_ reports: [(scope: String, xml: String)]) -> String {
    let counted = ["tests", "failures", "errors", "skipped"]
    var totals = [Int](repeating: 0, count: counted.count)
    var suites = ""
    for (scope, xml) in reports {
      guard let start = xml.range(of: "  <testsuite name=\""),
        let end = xml.range(of: "  </testsuite>\n", options: .backwards), start.upperBound <= end.lowerBound
      else { continue }
      let suite = xml[start.upperBound..<end.upperBound]
      let head = suite.prefix { $0 != ">" }
      for (index, name) in counted.enumerated() { totals[index] += attribute(name, in: head) }
      suites += "  <testsuite name=\"scope " + MarkupText.escape(scope) + ": " + suite
    }
    let counts = zip(counted, totals).map { "\($0)=\"\($1)\"" }.joined(separator: " ")
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tagscope validate\" \(counts)>\n"
      + suites + "</testsuites>\n"
  }

  /// The integer attribute `name` of a tag's text (0 when absent).
  private static func attribute(_ name: String, in tag: Substring) -> Int {
    guard let found = tag.range(of: " \(name)=\"") else { return 0 }
    return Int(tag[found.upperBound...].prefix { $0.isNumber }) ?? 0
  }
}
