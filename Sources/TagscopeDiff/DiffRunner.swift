import TagscopeRecording

/// `tagscope diff BASE NEW`: reads both recordings, compares them and renders the report.
public enum DiffRunner {
  /// What the command prints and returns.
  public struct Outcome: Sendable {
    /// 0 no change at `--fail-on`, 1 one or more, 2 bad input.
    public var exitCode: Int32
    /// The report (standard output).
    public var output: String
    /// Unreadable lines and errors (standard error).
    public var diagnostics: String
    /// The report, when both recordings were read.
    public var report: DiffReport?
  }

  /// Compares the recordings at `base` and `new` (`-` reads standard input, for one of them).
  public static func run(base: String, new: String, format: DiffFormat, failOn: Set<DiffChange>) -> Outcome {
    let before: (RecordingProfile, ProfileReader.Summary)
    let after: (RecordingProfile, ProfileReader.Summary)
    do {
      before = try ProfileReader.read(path: base)
      after = try ProfileReader.read(path: new)
    } catch {
      return Outcome(exitCode: 2, output: "", diagnostics: "\(error)\n", report: nil)
    }
    let problems = before.1.problems + after.1.problems
    var diagnostics = ""
    for (file, summary) in [(base, before.1), (new, after.1)] {
      if let warning = summary.versionWarning { diagnostics += "\(file): warning: \(warning)\n" }
      diagnostics += summary.sequenceNotes.map { $0 + "\n" }.joined()
    }
    diagnostics += problems.map { "\($0) (line skipped)\n" }.joined()
    for (file, summary) in [(base, before.1), (new, after.1)] where summary.droppedByWriter > 0 {
      diagnostics +=
        "\(file): the writer dropped \(summary.droppedByWriter) records; the diff may show them as changes\n"
    }
    let report = DiffReport(
      diff: RecordingDiff(base: before.0, new: after.0), baseFile: base, newFile: new, failOn: failOn,
      problems: problems)
    return Outcome(
      exitCode: report.regressed ? 1 : 0, output: format.render(report), diagnostics: diagnostics,
      report: report)
  }
}
