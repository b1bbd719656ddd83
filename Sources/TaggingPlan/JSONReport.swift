import TagscopeRecording

/// The machine-readable report:
/// `{"violations":[{"seq","severity","rule","tag","provider","message"}…],
/// "coverage":{"planned","seen","missing":[…]},"records":N,"problems":[{"file","line","reason"}…],
/// "sequence":{"repeated","backwards","restarts","anomalies":[{"file","line","reason"}…]}}`
/// (`provider` is null when none; `problems` are the unreadable lines, skipped; `sequence` counts
/// the records whose `seq` repeats or goes backwards within their source, listing the first ones).
public enum JSONReport {
  /// The report as one JSON object, ending with a newline.
  public static func render(_ report: ValidationReport) -> String {
    var out = "{\"violations\":["
    for (index, violation) in report.violations.enumerated() {
      if index > 0 { out += "," }
      out += "{\"seq\":\(violation.seq),\"severity\":\"\(violation.severity.rawValue)\""
      out += ",\"rule\":\"\(violation.rule.rawValue)\",\"tag\":"
      appendString(violation.tag, to: &out)
      out += ",\"provider\":"
      if let provider = violation.provider { appendString(provider, to: &out) } else { out += "null" }
      out += ",\"message\":"
      appendString(violation.message, to: &out)
      out += "}"
    }
    out +=
      "],\"coverage\":{\"planned\":\(report.coverage.planned),\"seen\":\(report.coverage.seenCount),\"missing\":["
    for (index, item) in report.coverage.missing.enumerated() {
      if index > 0 { out += "," }
      appendString(item.id, to: &out)
    }
    out += "]},\"records\":\(report.records),\"problems\":"
    appendLines(report.problems, to: &out)
    let sequence = report.sequence
    out += ",\"sequence\":{\"repeated\":\(sequence.repeated),\"backwards\":\(sequence.backwards)"
    out += ",\"restarts\":\(sequence.restarts),\"anomalies\":"
    appendLines(report.sequenceAnomalies, to: &out)
    out += "}}\n"
    return out
  }

  /// Appends `[{"file","line","reason"}…]`.
  private static func appendLines(_ lines: [RecordingProblem], to out: inout String) {
    out += "["
    for (index, problem) in lines.enumerated() {
      if index > 0 { out += "," }
      out += "{\"file\":"
      appendString(problem.file, to: &out)
      out += ",\"line\":\(problem.line),\"reason\":"
      appendString(problem.message, to: &out)
      out += "}"
    }
    out += "]"
  }

  /// `text` as a JSON string literal (see ``appendString(_:to:)``).
  static func string(_ text: String) -> String {
    JSONText.quoted(text) { $0.value == 0x2028 || $0.value == 0x2029 }
  }

  /// Appends `text` as a JSON string literal (line and paragraph separators escaped too, so the
  /// report can be embedded in a script).
  static func appendString(_ text: String, to out: inout String) {
    out += JSONText.quoted(text) { $0.value == 0x2028 || $0.value == 0x2029 }
  }
}
