import Foundation
import TagscopeInspector

/// `tagscope validate`: loads a plan, validates recordings against it and renders the report.
///
/// Exit codes: 0 when no violation is at or above `failOn`, 1 when one is, 2 for bad input (a plan
/// that does not load, a recording that cannot be read). Unreadable lines are reported on the
/// diagnostics stream (`file:line: …`) and skipped.
public enum ValidateRunner {
  /// What the command prints and returns.
  public struct Outcome: Sendable {
    /// The process exit code.
    public var exitCode: Int32
    /// The report (standard output).
    public var output: String
    /// Messages for standard error: plan errors, unreadable recordings and lines.
    public var diagnostics: String
    /// The report, when validation ran.
    public var report: ValidationReport?
  }

  /// Runs the validation of `recordings` against the plan at `planPath`.
  public static func run(planPath: String, recordings: [String], format: ReportFormat, failOn: Severity)
    -> Outcome
  {
    let plan: Plan
    do {
      plan = try PlanLoader.load(contentsOf: planPath)
    } catch let error as PlanLoadError {
      return Outcome(exitCode: 2, output: "", diagnostics: "\(error)\n", report: nil)
    } catch {
      return Outcome(exitCode: 2, output: "", diagnostics: "\(planPath): \(error)\n", report: nil)
    }
    return run(plan: plan, recordings: recordings, format: format, failOn: failOn)
  }

  /// Runs the validation of `recordings` against a loaded plan.
  public static func run(plan: Plan, recordings: [String], format: ReportFormat, failOn: Severity) -> Outcome
  {
    guard !recordings.isEmpty else {
      return Outcome(exitCode: 2, output: "", diagnostics: "no recording given\n", report: nil)
    }
    let report: ValidationReport
    var diagnostics = ""
    do {
      report = try validate(plan: plan, recordings: recordings) { diagnostics += $0 + "\n" }
    } catch {
      return Outcome(exitCode: 2, output: "", diagnostics: diagnostics + "\(error)\n", report: nil)
    }
    for problem in report.problems { diagnostics += "\(problem) (line skipped)\n" }
    return Outcome(
      exitCode: report.fails(at: failOn) ? 1 : 0, output: format.render(report, failOn: failOn),
      diagnostics: diagnostics, report: report)
  }

  /// Validates `recordings` in order against `plan`, reading on the calling thread and validating
  /// on another. Notes (records the writer dropped) go to `note`; unreadable lines are in the
  /// report's `problems`. Throws when a recording cannot be read at all.
  public static func validate(plan: Plan, recordings: [String], note: (String) -> Void = { _ in })
    throws(RecordingReadError) -> ValidationReport
  {
    let pipeline = ValidationPipeline(plan: plan)
    var problems: [RecordingProblem] = []
    var failure: RecordingReadError?
    for path in recordings {
      do {
        let summary = try RecordingScanner.scan(path: path) { pipeline.add($0) }
        problems.append(contentsOf: summary.problems)
        if summary.droppedByWriter > 0 {
          note("\(path): the writer dropped \(summary.droppedByWriter) records; coverage may be incomplete")
        }
      } catch {
        failure = error
        break
      }
    }
    let (violations, validator) = pipeline.finish()
    if let failure { throw failure }
    return ValidationReport(
      plan: plan, violations: violations, coverage: validator.coverage, records: validator.records,
      problems: problems)
  }
}
