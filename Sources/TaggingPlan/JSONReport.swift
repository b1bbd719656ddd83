import TagscopeRecording

/// The machine-readable report:
/// `{"violations":[{"seq","severity","rule","tag","provider","message","file","line","time","source",
/// "planFile","planLine","expected","actual"}…],
/// "coverage":{"planned","seen","passed","failing","blocked","notSeen","missing":[…],
/// "items":[{"id","section","tag","screen","provider","planLine","state","rules","reasons","records",
/// "failures"}…]},
/// "records":N,"files":[…],"sources":[{"source","records","violations"}…],
/// (with --by-source) "coverageBySource":[{"source","passed","failing","blocked","notSeen",
/// "states":{item id: state}}…],
/// "problems":[{"file","line","reason"}…],
/// "sequence":{"repeated","backwards","restarts","anomalies":[{"file","line","reason"}…]}}`.
///
/// `file`, `line` (in the recording), `time` and `source` say where the record is (null when the
/// report was built from records in memory, `source` null for records without one); `expected`
/// is what the plan expected (the call's provider, name, method and params, `call` null where the
/// plan says `none`, or the property's constraints in JSON Schema words, or the allowed screens;
/// null for an unplanned tag) and
/// `actual` what the record carried (the provider's status and calls, or the property's value,
/// or the screen). `provider`, `planLine` are null when none; `state` is `passed`, `failing`
/// (with `rules`), `blocked` (with `reasons`) or `not-seen`; `missing` lists the items never
/// seen (not seen or blocked); `problems` are the unreadable lines, skipped; `sequence` counts the
/// records whose `seq` repeats or goes backwards within their source, listing the first ones.
public enum JSONReport {
  /// The report as one JSON object, ending with a newline.
  public static func render(_ report: ValidationReport) -> String {
    var out = "{\"violations\":["
    let sites = report.violationSites()
    for (index, violation) in report.violations.enumerated() {
      if index > 0 { out += "," }
      out += "{\"seq\":\(violation.seq),\"severity\":\"\(violation.severity.rawValue)\""
      out += ",\"rule\":\"\(violation.rule.rawValue)\",\"tag\":"
      appendString(violation.tag, to: &out)
      out += ",\"provider\":"
      if let provider = violation.provider { appendString(provider, to: &out) } else { out += "null" }
      out += ",\"message\":"
      appendString(violation.message, to: &out)
      if let site = sites[index] {
        out += ",\"file\":" + string(site.file) + ",\"line\":\(site.line),\"time\":\"\(site.timeText)\""
        out += ",\"source\":" + (site.source.map(string) ?? "null")
      } else {
        out += ",\"file\":null,\"line\":null,\"time\":null,\"source\":null"
      }
      out += ",\"planFile\":" + (violation.planFile.map(string) ?? "null")
      out += ",\"planLine\":" + (violation.planLine.map(String.init) ?? "null")
      out += ",\"expected\":"
      if let evidence = violation.evidence { evidence.appendExpected(to: &out) } else { out += "null" }
      out += ",\"actual\":"
      if let evidence = violation.evidence { evidence.appendActual(to: &out) } else { out += "null" }
      out += "}"
    }
    let coverage = report.coverage
    let counts = coverage.stateCounts
    out += "],\"coverage\":{\"planned\":\(coverage.planned),\"seen\":\(coverage.seenCount)"
    out += ",\"passed\":\(counts.passed),\"failing\":\(counts.failing),\"blocked\":\(counts.blocked)"
    out += ",\"notSeen\":\(counts.notSeen),\"missing\":["
    for (index, item) in coverage.missing.enumerated() {
      if index > 0 { out += "," }
      appendString(item.id, to: &out)
    }
    out += "],\"items\":["
    for (index, item) in coverage.items.enumerated() {
      if index > 0 { out += "," }
      let state = coverage.state(at: index)
      out += "{\"id\":" + string(item.id) + ",\"section\":\"\(item.sectionKey)\",\"tag\":" + string(item.tag)
      out += ",\"screen\":" + (item.screen.map(string) ?? "null")
      out += ",\"provider\":" + (item.provider.map(string) ?? "null")
      out += ",\"planLine\":\(item.location.line),\"state\":\"\(state.kind.rawValue)\",\"rules\":["
      if case .failing(let rules) = state { out += rules.map { "\"\($0.rawValue)\"" }.joined(separator: ",") }
      out += "],\"reasons\":["
      if case .blocked(let reasons) = state { out += reasons.map(string).joined(separator: ",") }
      out += "],\"records\":\(coverage.counts[index]),\"failures\":\(coverage.failures[index])}"
    }
    out += "]},\"records\":\(report.records),\"files\":["
    out += report.files.map(string).joined(separator: ",") + "],\"sources\":["
    for (index, total) in report.sources.enumerated() {
      if index > 0 { out += "," }
      out += "{\"source\":" + (total.source.map(string) ?? "null")
      out += ",\"records\":\(total.records),\"violations\":\(total.violations)}"
    }
    out += "]"
    if let bySource = report.coverageBySource {
      out += ",\"coverageBySource\":["
      for (number, (source, own)) in bySource.enumerated() {
        if number > 0 { out += "," }
        let counts = own.stateCounts
        out += "{\"source\":" + string(source) + ",\"passed\":\(counts.passed),\"failing\":\(counts.failing)"
        out += ",\"blocked\":\(counts.blocked),\"notSeen\":\(counts.notSeen),\"states\":{"
        out += own.items.indices.map { string(own.items[$0].id) + ":\"\(own.state(at: $0).kind.rawValue)\"" }
          .joined(separator: ",")
        out += "}}"
      }
      out += "]"
    }
    out += ",\"problems\":"
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
