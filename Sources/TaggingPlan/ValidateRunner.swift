import Foundation
import TagscopeRecording
import TagscopeTimeline

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

    /// The rendered report (standard output); empty when validation did not run.
    public var output: String { report.map { format.render($0, failOn: failOn) } ?? "" }

    /// Writes ``output`` to `handle`, the JSON report in chunks rather than built whole first.
    public func writeOutput(to handle: FileHandle) throws {
      if let report { try format.write(report, failOn: failOn, to: handle) }
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
    do {
      plan = try PlanLoader.load(contentsOf: planPath)
    } catch let error as PlanLoadError {
      return Outcome(exitCode: 2, diagnostics: "\(error)\n", report: nil, format: format, failOn: failOn)
    } catch {
      return Outcome(
        exitCode: 2, diagnostics: "\(planPath): \(error)\n", report: nil, format: format, failOn: failOn)
    }
    return run(
      plan: plan, recordings: recordings, format: format, failOn: failOn, failOnUnreadable: failOnUnreadable,
      bySource: bySource, generated: generated)
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
    for problem in report.problems { diagnostics += "\(problem) (line skipped)\n" }
    return Outcome(
      exitCode: report.fails(at: failOn) || (failOnUnreadable && !report.problems.isEmpty) ? 1 : 0,
      diagnostics: diagnostics, report: report, format: format, failOn: failOn)
  }

  /// Validates `recordings` in order against `plan`. Notes (records the writer dropped) go to
  /// `note`; unreadable lines are in the report's `problems`. Throws when a recording cannot be
  /// read at all.
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
    var lines = LineValidator(plan: plan, bySource: bySource)
    var violations: [PlanViolation] = []
    var problems: [RecordingProblem] = []
    var anomalies: [RecordingProblem] = []
    var sequence = SequenceCheck.Counts()
    var sites: [RecordSite] = []
    var sources: [SourceTotals] = []
    var headers: [ReportMeta.Recording] = []
    for path in recordings {
      let summary = try RecordingScanner.validate(path: path, with: &lines, into: &violations)
      headers.append(
        summary.header.map { ReportMeta.Recording(file: path, header: $0) }
          ?? ReportMeta.Recording(file: path))
      sites.append(contentsOf: summary.sites)
      SourceTotals.add(summary, to: &sources)
      problems.append(contentsOf: summary.problems)
      if let warning = summary.versionWarning { note("\(path): warning: \(warning)") }
      anomalies.append(contentsOf: summary.sequenceAnomalies)
      sequence += summary.sequence
      let located = summary.sequenceAnomalies.map(\.description)
      for line in SequenceReport.notes(path: path, located: located, counts: summary.sequence) { note(line) }
      if summary.droppedByWriter > 0 {
        note("\(path): the writer dropped \(summary.droppedByWriter) records; coverage may be incomplete")
      }
    }
    var report = ValidationReport(
      plan: plan, violations: violations, coverage: lines.validator.coverage,
      records: lines.validator.records,
      problems: problems, sequenceAnomalies: anomalies, sequence: sequence, files: recordings, sites: sites,
      sources: sources)
    report.coverageBySource = lines.bySource
    report.meta = ReportMeta(generated: generated ?? Date(), plan: plan, recordings: headers)
    return report
  }
}
