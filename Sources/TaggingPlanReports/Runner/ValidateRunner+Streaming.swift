import Foundation
import TaggingPlan
import TagscopeRecording

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` with the JSON report
  /// written to `handle` as the violations are found (see
  /// ``runStreamingJSON(plan:recordings:failOn:failOnUnreadable:bySource:generated:to:)``).
  public static func runStreamingJSON(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil, delivery: DeliverySection? = nil, to handle: FileHandle
  ) -> Outcome {
    switch loadPlan(planPath) {
    case .success(let plan):
      return runStreamingJSON(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated, delivery: delivery
      ) { try handle.write(contentsOf: $0) }
    case .failure(let error):
      return Outcome(exitCode: 2, diagnostics: error.message, report: nil, format: .json, failOn: failOn)
    }
  }

  /// Runs the validation of `recordings` against `plan`, handing the JSON report to `sink` in
  /// chunks as the violations are found: the same bytes as the `.json` ``Outcome/output`` of
  /// ``run(plan:recordings:format:failOn:failOnUnreadable:bySource:generated:)``, but no violation
  /// is kept once written, so memory holds the coverage, the counts and the unreadable lines
  /// whatever the number of violations. The outcome's report has no violations and is marked
  /// ``Outcome/written``. `delivery`: the report's delivery section, if any.
  ///
  /// Every recording is opened (its header read: the report's `meta` comes first) before the
  /// first is validated, so one that cannot be read at all stops the run (2) before any output.
  /// A read error in the middle of a recording is one of the report's `problems`, as in the
  /// report rendered whole, and the run goes on with the next recording (exit 2).
  public static func runStreamingJSON(
    plan: Plan, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil, delivery: DeliverySection? = nil,
    to sink: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) -> Outcome {
    guard !recordings.isEmpty else {
      return Outcome(
        exitCode: 2, diagnostics: "no recording given\n", report: nil, format: .json, failOn: failOn)
    }
    var diagnostics = ""
    let streamed: (report: ValidationReport, worst: Severity?)
    do {
      streamed = try streamJSON(
        plan: plan, recordings: recordings, bySource: bySource, generated: generated, delivery: delivery,
        note: { diagnostics += $0 + "\n" }, to: sink)
    } catch {
      return Outcome(
        exitCode: 2, diagnostics: diagnostics + "\(error)\n", report: nil, format: .json, failOn: failOn)
    }
    var outcome = outcome(
      streamed.report, fails: streamed.worst.map { $0 >= failOn } ?? false,
      failOnUnreadable: failOnUnreadable,
      diagnostics: diagnostics, format: .json, failOn: failOn)
    outcome.written = true
    return outcome
  }

  /// Validates and writes the JSON report to `sink`; returns the report without its violations
  /// and the highest severity among them (`nil` when none).
  private static func streamJSON(
    plan: Plan, recordings: [String], bySource: Bool, generated: Date?, delivery: DeliverySection?,
    note: (String) -> Void, to sink: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) throws -> (report: ValidationReport, worst: Severity?) {
    var opened = try open(recordings, note: note)
    let meta = ReportMeta(generated: generated ?? Date(), plan: plan, recordings: opened.headers)
    var lines = LineValidator(plan: plan, bySource: bySource)
    var totals = RunTotals()
    var worst: Severity?
    var report: ValidationReport?
    try JSONWriter.stream(to: sink) { out in
      out.escapesLineSeparators = true
      out.openObject()
      out.key("meta", first: true)
      JSONReport.write(meta, into: &out)
      out.key("violations")
      out.openArray()
      var first = true
      var fragments = ViolationFragments(streamed: true)
      scan(recordings, opened: &opened, lines: &lines, totals: &totals, note: note) { site, found in
        let place = JSONReport.Place(site)
        for violation in found {
          out.element(first: first)
          first = false
          fragments.write(violation, at: place, into: &out)
          if worst.map({ violation.severity > $0 }) ?? true { worst = violation.severity }
        }
        found.removeAll(keepingCapacity: true)
      }
      out.closeArray()
      var made = totals.report(plan: plan, violations: [], lines: lines, files: recordings)
      made.delivery = delivery
      JSONReport.writeTail(made, into: &out)
      report = made
    }
    guard var report else { throw StreamCut() }
    report.meta = meta
    return (report, worst)
  }

  /// The report was not finished (never thrown when the run completes).
  private struct StreamCut: Error {}
}
