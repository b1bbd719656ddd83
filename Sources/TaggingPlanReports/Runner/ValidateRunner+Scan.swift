import Foundation
import TaggingPlan
import TagscopeRecording

extension ValidateRunner {
  /// The recordings of a run once opened: their headers, and standard input's reader (it can be
  /// read only once, so it is kept from the header on; files are opened again when their turn
  /// comes, one reader's buffer at a time).
  struct Opened {
    var headers: [ReportMeta.Recording] = []
    /// The readers of inputs that give their bytes once (`-`, a pipe, a FIFO), by position in the
    /// run's recordings: read on from where their header ended, never opened again.
    var readOnce: [Int: RecordingReader] = [:]
  }

  /// Opens every recording (reads its header) before any is validated, so one that cannot be read
  /// at all stops the run before any work or output; the version warnings of those opened before
  /// it still go to `note`.
  static func open(_ recordings: [String], note: (String) -> Void)
    throws(RecordingReadError) -> Opened
  {
    var opened = Opened()
    var warnings: [String] = []
    for (index, path) in recordings.enumerated() {
      let reader: RecordingReader
      do throws(RecordingReadError) {
        reader = try RecordingReader(path: path)
      } catch {
        for warning in warnings { note(warning) }
        throw error
      }
      opened.headers.append(ReportMeta.Recording(file: path, header: reader.header))
      if let warning = reader.header.versionWarning { warnings.append("\(path): warning: \(warning)") }
      if reader.isReadOnce { opened.readOnce[index] = reader }
    }
    return opened
  }

  /// Validates `recordings` in order with `lines`, adding each one's summary to `totals` (its
  /// notes to `note`) and handing each record's violations with its site to `found`, which takes
  /// them out. A recording whose reading fails part way is kept up to there, the error in its
  /// summary, and the run goes on with the next.
  static func scan(
    _ recordings: [String], opened: inout Opened, lines: inout LineValidator, totals: inout RunTotals,
    note: (String) -> Void, found: (RecordSite, inout [PlanViolation]) -> Void
  ) {
    var scratch: [PlanViolation] = []
    for (index, path) in recordings.enumerated() {
      let reader: RecordingReader
      if let kept = opened.readOnce.removeValue(forKey: index) {
        reader = kept
      } else {
        do throws(RecordingReadError) { reader = try RecordingReader(path: path) } catch {
          // Opened a moment ago: it changed or went away since.
          var summary = RecordingScanner.Summary()
          summary.readFailure = RecordingProblem(
            file: path, line: 1, message: RecordingScanner.Summary.readFailureMessage(error, path: path))
          totals.add(summary, path: path, note: note)
          continue
        }
      }
      let summary = RecordingScanner.validate(
        reader: reader, path: path, with: &lines, into: &scratch, found: found)
      totals.add(summary, path: path, note: note)
    }
  }

  /// The outcome of a run whose report is `report`: its problems added to `diagnostics`, exit 2
  /// when a recording could not be read to its end, 1 when `fails` (or, with `failOnUnreadable`,
  /// when a line could not be read), 0 otherwise.
  static func outcome(
    _ report: ValidationReport, fails: Bool, failOnUnreadable: Bool, diagnostics: String,
    format: ReportFormat, failOn: Severity
  ) -> Outcome {
    var diagnostics = diagnostics
    for problem in report.problems {
      diagnostics += report.readFailures.contains(problem) ? "\(problem)\n" : "\(problem) (line skipped)\n"
    }
    let exitCode: Int32 =
      if !report.readFailures.isEmpty { 2 } else if fails || (failOnUnreadable && !report.problems.isEmpty) {
        1
      } else { 0 }
    return Outcome(
      exitCode: exitCode, diagnostics: diagnostics, report: report, format: format, failOn: failOn)
  }
}
