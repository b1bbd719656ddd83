import TagscopeRecording
import TagscopeTimeline

/// The report for a person: a summary line with the report's metadata under it (when made, by
/// which tagscope, the plan file, each recording's header), violations grouped by severity then by rule, tag
/// and provider (a few examples each, each with its recording `file:line` when known), then the
/// checklist of the items that did not pass (failing with how many of their records broke them
/// and the rules broken, blocked with their reasons, not seen).
public enum TextReport {
  /// Examples shown per group.
  static let examples = 5

  /// The report as text, ending with a newline.
  public static func render(_ report: ValidationReport) -> String {
    var tally = TextTally()
    for (violation, site) in zip(report.violations, report.violationSites()) {
      tally.add(violation, at: site)
    }
    return render(report, tally: tally)
  }

  /// The report as text, its violations those of `tally` (a tallied run's report has none of its
  /// own).
  static func render(_ report: ValidationReport, tally: TextTally) -> String {
    var lines = Lines()
    let errors = tally.errors
    let warnings = tally.warnings
    lines.append(
      "plan \(report.plan.title) · \(report.records) records · \(plural(errors, "error")), \(plural(warnings, "warning")) · \(report.coverage.summary)"
    )
    if let meta = report.meta { header(meta, into: &lines) }
    if !report.problems.isEmpty {
      lines.append("")
      lines.append("unreadable lines (\(report.problems.count), skipped)")
      for problem in report.problems.prefix(20) { lines.append("  \(problem)") }
      if report.problems.count > 20 { lines.append("  … and \(report.problems.count - 20) more") }
    }
    let sequence = report.sequence
    if sequence.reported > 0 {
      lines.append("")
      lines.append(
        "seq out of order (\(sequence.repeated) repeated, \(sequence.backwards) backwards, "
          + (sequence.jumped > 0 ? "\(sequence.jumped) jumped far ahead, " : "")
          + "\(sequence.restarts) restarts; records checked in file order)")
      for anomaly in report.sequenceAnomalies.prefix(20) { lines.append("  \(anomaly)") }
      if sequence.reported > 20 { lines.append("  … and \(sequence.reported - 20) more") }
    }
    for severity in [Severity.error, .warning] {
      let selected = tally.groups.filter { $0.severity == severity }
      guard !selected.isEmpty else { continue }
      lines.append("")
      lines.append(severity == .error ? "errors" : "warnings")
      for group in selected {
        let provider = group.provider.map { " · \($0)" } ?? ""
        lines.append("  \(group.rule.rawValue) · \(group.tag)\(provider) (\(group.count)×)")
        for example in group.examples { lines.append("    " + example) }
        if group.count > group.examples.count {
          lines.append("    … and \(group.count - group.examples.count) more")
        }
      }
    }
    let coverage = report.coverage
    lines.append("")
    lines.append("coverage: \(coverage.summary)")
    for kind in [CoverageState.Kind.failing, .blocked, .notSeen] {
      for index in coverage.items.indices {
        let state = coverage.state(at: index)
        guard state.kind == kind else { continue }
        let item = coverage.items[index]
        lines.append("  \(state.label) · \(item.id) · plan line \(item.location.line)")
      }
    }
    if let bySource = report.coverageBySource {
      lines.append("")
      lines.append("coverage by source (what each device has not yet passed that another has)")
      for (source, own) in bySource {
        lines.append("  \(source): \(own.summary)")
        let behind = own.items.indices.filter {
          own.state(at: $0).kind != .passed && coverage.state(at: $0).kind == .passed
        }
        for index in behind.prefix(Self.behindShown) {
          lines.append("    \(own.state(at: index).label) · \(own.items[index].id)")
        }
        if behind.count > Self.behindShown {
          lines.append("    … and \(behind.count - Self.behindShown) more")
        }
      }
    }
    return lines.text
  }

  /// The report's text, one line at a time, each made terminal-safe (names, ids, sources and
  /// messages come from the plan and the recordings) and ended with a newline as it is added.
  struct Lines {
    private(set) var text = ""

    mutating func append(_ line: String) {
      text += TerminalText.sanitize(line)
      text += "\n"
    }
  }

  /// Under the summary line, indented: `tagscope 0.1.0 · generated 2026-…Z`, the plan file, each
  /// recording's header (app, version and build, device, when it started).
  static func header(_ meta: ReportMeta, into lines: inout Lines) {
    lines.append("  tagscope \(meta.toolVersion) · generated \(meta.generatedText)")
    lines.append("  plan file \(meta.planText)")
    for recording in meta.recordings.prefix(ReportMeta.recordingsListed) {
      let started = recording.startedMilliseconds.map {
        " · started \(ISO8601Timestamp.string(milliseconds: $0))"
      }
      lines.append("  recording \(recording.file): \(recording.summary)\(started ?? "")")
    }
    if meta.recordings.count > ReportMeta.recordingsListed {
      lines.append("  … and \(meta.recordings.count - ReportMeta.recordingsListed) more recordings")
    }
  }

  /// Items listed per source under "coverage by source".
  static let behindShown = 20

  static func plural(_ count: Int, _ word: String) -> String {
    "\(count) \(word)\(count == 1 ? "" : "s")"
  }
}
