import Foundation
import TaggingPlan
import TagscopeRecording

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
    render(report, tally: TextTally(report))
  }

  /// Writes what ``render(_:)`` returns to `handle` in chunks.
  static func write(_ report: ValidationReport, to handle: FileHandle) throws {
    try write(report, tally: TextTally(report), to: handle)
  }

  /// The report as text, its violations those of `tally` (a tallied run's report has none of its
  /// own).
  static func render(_ report: ValidationReport, tally: TextTally) -> String {
    var lines = Lines()
    add(report, tally: tally, to: &lines)
    return lines.text
  }

  /// Writes what ``render(_:tally:)`` returns to `handle` in chunks, never holding the whole text.
  static func write(_ report: ValidationReport, tally: TextTally, to handle: FileHandle) throws {
    var lines = Lines { chunk in
      var chunk = chunk
      try chunk.withUTF8 { try handle.write(contentsOf: UnsafeRawBufferPointer($0)) }
    }
    add(report, tally: tally, to: &lines)
    lines.flush()
    if let failure = lines.failure { throw failure }
  }

  /// The report's lines added to `lines`.
  private static func add(_ report: ValidationReport, tally: TextTally, to lines: inout Lines) {
    let errors = tally.severities.errors
    let warnings = tally.severities.warnings
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
        let examples = group.examples
        for example in examples { lines.append("    " + example) }
        if group.count > examples.count {
          lines.append("    … and \(group.count - examples.count) more")
        }
      }
    }
    if let delivery = report.delivery { add(delivery, to: &lines) }
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
  }

  /// The report's text, one line at a time, each made terminal-safe (names, ids, sources and
  /// messages come from the plan and the recordings) and ended with a newline as it is added;
  /// with a sink, handed to it in chunks of about ``chunk`` bytes rather than kept.
  struct Lines {
    /// Bytes held before they are handed to the sink.
    static let chunk = 1 << 16
    private(set) var text = ""
    private let sink: ((String) throws -> Void)?
    /// The sink's first error (nothing is handed to it after).
    private(set) var failure: (any Error)?

    init(sink: ((String) throws -> Void)? = nil) { self.sink = sink }

    mutating func append(_ line: String) {
      text += TerminalText.sanitize(line)
      text += "\n"
      if sink != nil, text.utf8.count >= Self.chunk { flush() }
    }

    /// Hands the text held to the sink, if any.
    mutating func flush() {
      guard let sink, !text.isEmpty else { return }
      if failure == nil {
        do { try sink(text) } catch { failure = error }
      }
      text.removeAll(keepingCapacity: true)
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

  /// `delivery: 7 calls · 5 delivered · 2 lost`, each provider's, then each call that never
  /// reached its vendor with its place (the first 20).
  private static func add(_ delivery: DeliverySection, to lines: inout Lines) {
    lines.append("")
    lines.append("delivery: " + delivery.summary)
    for provider in delivery.providers {
      lines.append(
        "  \(provider.provider): "
          + provider.counts.map { "\($0.count) \($0.state)" }.joined(separator: " · "))
    }
    if delivery.unexplained > 0 {
      lines.append("  \(plural(delivery.unexplained, "wire call")) no in-app call explains")
    }
    lines.append("  " + delivery.answersLine)
    if !delivery.problems.isEmpty {
      lines.append("  sent by the app, never reached the vendor:")
      for problem in delivery.problems.prefix(20) { lines.append("    " + DeliverySection.line(problem)) }
      if delivery.problems.count > 20 { lines.append("    … and \(delivery.problems.count - 20) more") }
    }
  }

  static func plural(_ count: Int, _ word: String) -> String { CountWords.plural(count, word) }
}
