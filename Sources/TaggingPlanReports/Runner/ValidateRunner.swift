import Foundation
import TaggingPlan
import TagscopeRecording

/// `tagscope validate`: loads a plan, validates recordings against it and renders the report.
///
/// Exit codes: 0 when no violation is at or above `failOn`, 1 when one is (or, with
/// `failOnUnreadable`, when a line could not be read), 2 for bad input (a plan that does not load,
/// a recording that cannot be read). Unreadable lines are reported on the diagnostics stream
/// (`file:line: …`) and in every report format, and skipped.
public enum ValidateRunner {
  /// What the command prints and returns.
  public struct Outcome: Sendable {
    /// The process exit code.
    public var exitCode: Int32
    /// Messages for standard error: plan errors, unreadable recordings and lines.
    public var diagnostics: String
    /// The report, when validation ran.
    public var report: ValidationReport?
    /// The format the report is rendered in.
    public var format: ReportFormat
    /// The lowest severity that fails (JUnit failures, the HTML verdict).
    public var failOn: Severity
    /// The report already rendered (a run that kept no violations: ``runJUnit(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``,
    /// ``runHTML(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
    var rendered: String?
    /// The text report's tally (a run that kept no violations: ``runText(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``),
    /// rendered from it with ``report``.
    var textTally: TextTally?
    /// Whether the report was written as validation went (``runStreamingJSON(plan:recordings:failOn:failOnUnreadable:bySource:generated:to:)``):
    /// ``report`` then has no violations, and ``output`` and ``writeOutput(to:)`` give nothing.
    public var written = false

    /// The rendered report (standard output); empty when validation did not run.
    public var output: String {
      guard !written, let report else { return "" }
      if let textTally { return TextReport.render(report, tally: textTally) }
      return rendered ?? format.render(report, failOn: failOn)
    }

    /// Writes ``output`` to `handle`, the JSON and text reports in chunks rather than built whole
    /// first.
    public func writeOutput(to handle: FileHandle) throws {
      if let textTally, !written, let report {
        try TextReport.write(report, tally: textTally, to: handle)
      } else if var rendered, !written {
        // Its bytes written in place, not copied first (a large report is tens of megabytes).
        try rendered.withUTF8 { try handle.write(contentsOf: UnsafeRawBufferPointer($0)) }
      } else if !written, let report {
        try format.write(report, failOn: failOn, to: handle)
      }
    }
  }

  /// Runs the validation of `recordings` against the plan at `planPath`.
  ///
  /// The report says it was made at `generated` (now unless given: golden tests fix it).
  public static func run(
    planPath: String, recordings: [String], format: ReportFormat, failOn: Severity,
    failOnUnreadable: Bool = false, bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    let plan: Plan
    switch loadPlan(planPath) {
    case .success(let loaded): plan = loaded
    case .failure(let error):
      return Outcome(exitCode: 2, diagnostics: error.message, report: nil, format: format, failOn: failOn)
    }
    return run(
      plan: plan, recordings: recordings, format: format, failOn: failOn, failOnUnreadable: failOnUnreadable,
      bySource: bySource, generated: generated)
  }

  /// Why a plan did not load, as the diagnostics say it.
  struct PlanFailure: Error {
    var message: String
  }

  /// The plan at `path`, or why it did not load.
  static func loadPlan(_ path: String) -> Result<Plan, PlanFailure> {
    do {
      return .success(try PlanLoader.load(contentsOf: path))
    } catch let error as PlanLoadError {
      return .failure(PlanFailure(message: "\(error)\n"))
    } catch {
      return .failure(PlanFailure(message: "\(path): \(error)\n"))
    }
  }

  /// Runs the validation of `recordings` against a loaded plan.
  public static func run(
    plan: Plan, recordings: [String], format: ReportFormat, failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    guard !recordings.isEmpty else {
      return Outcome(
        exitCode: 2, diagnostics: "no recording given\n", report: nil, format: format, failOn: failOn)
    }
    let report: ValidationReport
    var diagnostics = ""
    do {
      report = try validate(plan: plan, recordings: recordings, bySource: bySource, generated: generated) {
        diagnostics += $0 + "\n"
      }
    } catch {
      return Outcome(
        exitCode: 2, diagnostics: diagnostics + "\(error)\n", report: nil, format: format, failOn: failOn)
    }
    return outcome(
      report, fails: report.fails(at: failOn), failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
      format: format, failOn: failOn)
  }

  /// Validates `recordings` in order against `plan`. Notes (records the writer dropped) go to
  /// `note`; unreadable lines are in the report's `problems`, and so is a read error that stops a
  /// recording part way (its ``ValidationReport/readFailures``; the next recording is read). Every
  /// recording is opened first: throws, before validating any, when one cannot be read at all.
  ///
  /// Records are decoded only the first time their content (kind, name, properties, screen,
  /// outputs) is seen; a record repeating an earlier one but for `seq`, `time`, history or session
  /// reuses its result (see `LineKey`), so validation keeps up with indexing.
  /// With `bySource`, the report also has each source's own coverage. Its ``ValidationReport/meta``
  /// says it was made at `generated` (now unless given) and carries each recording's header.
  public static func validate(
    plan: Plan, recordings: [String], bySource: Bool = false, generated: Date? = nil,
    note: (String) -> Void = { _ in }
  )
    throws(RecordingReadError) -> ValidationReport
  {
    var opened = try open(recordings, note: note)
    let headers = opened.headers
    var lines = LineValidator(plan: plan, bySource: bySource)
    var totals = RunTotals()
    var violations: [PlanViolation] = []
    var sites: [RecordSite] = []
    scan(recordings, opened: &opened, lines: &lines, totals: &totals, note: note) { site, found in
      var site = site
      site.firstViolation = violations.count
      sites.append(site)
      violations.append(contentsOf: found)
      found.removeAll(keepingCapacity: true)
    }
    var report = totals.report(plan: plan, violations: violations, lines: lines, files: recordings)
    report.sites = sites
    report.meta = ReportMeta(generated: generated ?? Date(), plan: plan, recordings: headers)
    return report
  }
}
