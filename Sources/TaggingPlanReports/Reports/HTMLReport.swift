import TaggingPlan
import TagscopeRecording

/// The report for a ticket or a CI artefact: one self-contained HTML page (inline CSS, no script,
/// no external resource) with the summary, the coverage matrix (each planned tag by screen and
/// provider, cells coloured by state and marked with the state's symbol), the violations grouped by
/// rule with the plan's expectation beside what the record carried, and the records and
/// violations per source. Every value from the plan or the recordings is escaped.
public enum HTMLReport {
  /// Groups (rule, tag, provider, plan line) shown per rule; the rest are counted.
  static let groupsPerRule = 50
  /// Occurrences listed per group; the rest are counted.
  static let occurrencesPerGroup = 10
  /// Unreadable lines and seq anomalies listed; the rest are counted.
  static let problemsListed = 20
  /// Bytes of a violation's payload shown; the rest are cut, and the page says so.
  static let payloadLimit = 4096

  /// The report as an HTML document; violations at or above `failOn` are the ones that fail.
  public static func render(_ report: ValidationReport, failOn: Severity) -> String {
    render(report, tally: HTMLTally(report), failOn: failOn)
  }

  /// The report as an HTML document, its violations those of `tally` (a tallied run's report has
  /// none of its own).
  static func render(_ report: ValidationReport, tally: HTMLTally, failOn: Severity) -> String {
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<title>" + MarkupText.escape("tagscope validate · plan \(report.plan.title)") + "</title>\n"
    out += "<style>\n" + style + "</style>\n</head>\n<body>\n"
    summary(report, tally: tally, failOn: failOn, into: &out)
    if let meta = report.meta { header(meta, into: &out) }
    matrix(report.coverage, into: &out)
    violations(tally, into: &out)
    sources(report, violations: tally.total, into: &out)
    if let delivery = report.delivery { self.delivery(delivery, into: &out) }
    problems(report, into: &out)
    out += "</body>\n</html>\n"
    return out
  }

  private static let style = """
    body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#1b1f24;background:#fff}
    h1{font-size:1.4em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.6em 0 .5em;border-bottom:1px solid #d0d7de}
    h3{font-size:1em;margin:1.2em 0 .4em}table{border-collapse:collapse;margin:.3em 0}
    th,td{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}
    th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
    code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em;word-break:break-all}
    .passed{background:#dafbe1;color:#116329}.failing{background:#ffebe9;color:#a40e26;font-weight:600}
    .blocked{background:#fff8c5;color:#7d4e00}.not-seen{background:#f6f8fa;color:#57606a}
    .none{color:#8c959f;text-align:center}.differs{background:#ffebe9}.same{color:#57606a}
    .verdict-fail{color:#a40e26;font-weight:600}.verdict-pass{color:#116329;font-weight:600}
    .legend span{display:inline-block;padding:.1em .5em;margin-right:.4em;border:1px solid #d0d7de}
    .muted{color:#57606a}.nowrap{white-space:nowrap;word-break:normal}td.where{word-break:normal}
    code.where{word-break:normal;overflow-wrap:anywhere}
    details summary{cursor:pointer;color:#57606a}details pre{margin:.3em 0;white-space:pre-wrap;word-break:break-all}
    """

  private static func summary(
    _ report: ValidationReport, tally: HTMLTally, failOn: Severity, into out: inout String
  ) {
    let errors = tally.severities.errors
    let warnings = tally.severities.warnings
    let fails = tally.fails(at: failOn)
    out += "<h1>" + MarkupText.escape("Plan \(report.plan.title)") + "</h1>\n<p>"
    out += "<span class=\"\(fails ? "verdict-fail" : "verdict-pass")\">"
    out += fails ? "FAILED" : "PASSED"
    out += "</span> (fails on \(failOn.rawValue)) · \(report.records) records · "
    out += "\(TextReport.plural(errors, "error")), \(TextReport.plural(warnings, "warning")) · "
    out += MarkupText.escape(report.coverage.summary) + "</p>\n"
    if !report.files.isEmpty {
      out += "<p class=\"muted\">Recordings: "
      out += report.files.map { "<code>\(MarkupText.escape($0))</code>" }.joined(separator: ", ")
      out += " · plan <code>\(MarkupText.escape(report.plan.file))</code></p>\n"
    }
  }

  /// The report's metadata as a table: generated, tagscope version, plan, one row per recording.
  static func header(_ meta: ReportMeta, into out: inout String) {
    out += "<table class=\"meta\"><tbody>\n"
    func row(_ name: String, _ value: String) {
      out += "<tr><th>" + MarkupText.escape(name) + "</th><td>" + MarkupText.escape(value) + "</td></tr>\n"
    }
    row("generated", meta.generatedText)
    row("tagscope", meta.toolVersion)
    row("plan", meta.planText)
    for recording in meta.recordings.prefix(ReportMeta.recordingsListed) {
      var value = recording.summary
      if let started = recording.startedMilliseconds {
        value += " · started " + ISO8601Timestamp.string(milliseconds: started)
      }
      out += "<tr><th>recording</th><td><code>" + MarkupText.escape(recording.file) + "</code> "
      out += MarkupText.escape(value) + "</td></tr>\n"
    }
    if meta.recordings.count > ReportMeta.recordingsListed {
      row("recordings", "… and \(meta.recordings.count - ReportMeta.recordingsListed) more")
    }
    out += "</tbody></table>\n"
  }

  /// One row per planned tag and screen, one column for the tag itself and one per provider.
  private static func matrix(_ coverage: Coverage, into out: inout String) {
    out += "<h2>Coverage</h2>\n<p class=\"legend\">"
    for (kind, text) in [
      ("passed", "✓ passed: every record passed"), ("failing", "✗ failing: a record broke it"),
      ("blocked", "⊘ blocked"), ("not-seen", "· not seen"),
    ] {
      out += "<span class=\"\(kind)\">\(text)</span>"
    }
    out += "</p>\n"
    var providers: [String] = []
    for item in coverage.items where !item.isCatalogueEntry {
      if let provider = item.provider, !providers.contains(provider) { providers.append(provider) }
    }
    out += "<table class=\"matrix\">\n<thead><tr><th>tag</th><th>screen</th><th>tag itself</th>"
    for provider in providers { out += "<th>" + MarkupText.escape(provider) + "</th>" }
    out += "</tr></thead>\n<tbody>\n"
    // Items come per entry: its tag item, then its provider items.
    var index = 0
    while index < coverage.items.count, let section = coverage.items[index].section {
      let tagIndex = index
      let tag = coverage.items[index]
      index += 1
      var screens: [String?] = []
      var cells: [String?: [String: Int]] = [:]
      while index < coverage.items.count, let provider = coverage.items[index].provider,
        coverage.items[index].tag == tag.tag, coverage.items[index].section == tag.section
      {
        let screen = coverage.items[index].screen
        if !screens.contains(screen) { screens.append(screen) }
        cells[screen, default: [:]][provider] = index
        index += 1
      }
      if screens.isEmpty { screens = [nil] }
      for (row, screen) in screens.enumerated() {
        out += "<tr>"
        if row == 0 {
          let span = screens.count > 1 ? " rowspan=\"\(screens.count)\"" : ""
          out += "<th\(span)>" + MarkupText.escape("\(section.noun) \(tag.tag)") + "</th>"
        }
        out += "<td>" + (screen.map(MarkupText.escape) ?? "<span class=\"muted\">any</span>") + "</td>"
        if row == 0 {
          let span = screens.count > 1 ? " rowspan=\"\(screens.count)\"" : ""
          out += cell(coverage, tagIndex, attributes: span)
        }
        for provider in providers {
          if let item = cells[screen]?[provider] {
            out += cell(coverage, item, attributes: "")
          } else {
            out += "<td class=\"none\">—</td>"
          }
        }
        out += "</tr>\n"
      }
    }
    out += "</tbody>\n</table>\n"
    catalogues(coverage, from: index, into: &out)
  }

  /// The providers' call catalogues (items after the entries'): one row per catalogue entry.
  private static func catalogues(_ coverage: Coverage, from start: Int, into out: inout String) {
    guard start < coverage.items.count else { return }
    out += "<h3>Provider call catalogues</h3>\n<table class=\"matrix\">\n"
    out += "<thead><tr><th>provider</th><th>call</th><th>state</th></tr></thead>\n<tbody>\n"
    for index in start..<coverage.items.count {
      let item = coverage.items[index]
      out +=
        "<tr><td>" + MarkupText.escape(item.provider ?? "") + "</td><th>"
        + MarkupText.escape("\(item.noun) \(item.tag)") + "</th>"
      out += cell(coverage, index, attributes: "") + "</tr>\n"
    }
    out += "</tbody>\n</table>\n"
  }

  private static func cell(_ coverage: Coverage, _ index: Int, attributes: String) -> String {
    let state = coverage.state(at: index)
    let item = coverage.items[index]
    var detail = "\(item.id) · plan line \(item.location.line)"
    if state == .passed { detail += " · all \(coverage.counts[index]) records passed" }
    return
      "<td class=\"\(state.kind.rawValue)\"\(attributes) title=\"\(MarkupText.escape(detail))\">"
      + MarkupText.escape(state.label) + "</td>"
  }

  /// Violations by rule, then by (tag, provider, plan line), each group with the expected-vs-got
  /// rows of its first violation and its first occurrences.
  private static func violations(_ tally: HTMLTally, into out: inout String) {
    out += "<h2>Violations</h2>\n"
    guard tally.total > 0 else {
      out += "<p>None.</p>\n"
      return
    }
    // The violations about the same call as a group's first (same record, provider and call)
    // share one table, shown with the first group that has one of them.
    var tabled = Set<HTMLTally.Table>()
    for rule in ViolationRule.allCases {
      guard let groups = tally.shown[rule] else { continue }
      let total = tally.totals[rule] ?? 0
      out += "<h3>" + MarkupText.escape(rule.rawValue) + " <span class=\"muted\">(\(total))</span></h3>\n"
      for group in groups {
        let violation = group.occurrences[0].violation
        let comparison = group.comparison
        let table = group.table
        var heading = "\(group.key.severity.rawValue) · \(group.key.tag)"
        if let provider = group.key.provider { heading += " · \(provider)" }
        if let line = group.key.planLine { heading += " · \(comparison.planFile) line \(line)" }
        out +=
          "<p><strong>" + MarkupText.escape(heading)
          + "</strong> <span class=\"muted\">(\(group.count)×)</span></p>\n"
        if let table, tabled.contains(table) {
          out +=
            "<p class=\"muted\">Expected vs got: the table of #\(violation.seq) "
            + MarkupText.escape(comparison.title) + " above.</p>\n"
        } else {
          if let table { tabled.insert(table) }
          Self.table(comparison, into: &out)
        }
        occurrences(group, into: &out)
      }
      if let hidden = tally.hidden[rule], hidden > 0 {
        out += "<p class=\"muted\">… and \(hidden) more groups</p>\n"
      }
    }
  }

  /// A group's first occurrences, then how many more.
  private static func occurrences(_ group: HTMLTally.Group, into out: inout String) {
    out += "<table class=\"occurrences\"><thead><tr><th>where</th><th>seq</th>"
    out += "<th>time</th><th>source</th><th>message</th></tr></thead><tbody>\n"
    // Occurrences from identical records share their payload: shown once.
    var shown: [PlanViolation] = []
    for (violation, site) in group.occurrences {
      out += "<tr><td class=\"mono where\">" + place(site) + "</td>"
      out +=
        "<td class=\"num\">\(violation.seq)</td><td class=\"mono nowrap\">"
        + MarkupText.escape(site?.timeText ?? "—")
        + "</td>"
      out +=
        "<td>" + MarkupText.escape(site?.source ?? "—") + "</td><td>"
        + MarkupText.escape(violation.message)
      if let earlier = shown.first(where: { $0.sharesDetail(with: violation) }) {
        out += " <span class=\"muted\">(payload as #\(earlier.seq))</span>"
      } else if violation.evidence != nil {
        out += payload(violation)
        shown.append(violation)
      }
      out += "</td></tr>\n"
    }
    out += "</tbody></table>\n"
    if group.count > occurrencesPerGroup {
      out += "<p class=\"muted\">… and \(group.count - occurrencesPerGroup) more</p>\n"
    }
  }

  /// Where a record is, escaped (`logs/<wbr>r.jsonl:49`, ` from SOURCE` after it): the line
  /// never parted from its file's last component (`r.jsonl:49` is one unbreakable span), a long
  /// path breakable after each `/`.
  static func place(_ site: RecordSite?) -> String {
    guard let site else { return "—" }
    var folders = site.file.split(separator: "/", omittingEmptySubsequences: false)
    let name = folders.removeLast()
    var out = folders.map { MarkupText.escape(String($0) + "/") + "<wbr>" }.joined()
    out += "<span class=\"nowrap\">" + MarkupText.escape("\(name):\(site.line)") + "</span>"
    if let source = site.source { out += MarkupText.escape(" from \(source)") }
    return out
  }

  /// The expected-vs-got table of a comparison.
  private static func table(_ comparison: ExpectationComparison, into out: inout String) {
    out += "<table class=\"comparison\"><thead><tr><th>field</th><th>"
    out += MarkupText.escape(comparison.expectedHeading) + "</th><th>got (record)</th></tr></thead><tbody>\n"
    for row in comparison.rows {
      out += "<tr class=\"\(row.differs ? "differs" : "same")\"><td>" + MarkupText.escape(row.field) + "</td>"
      out += "<td class=\"mono\">" + MarkupText.escape(row.expected) + "</td>"
      out +=
        "<td class=\"mono\">" + (row.differs ? "✗ " : "") + MarkupText.escape(row.actual) + "</td></tr>\n"
    }
    out += "</tbody></table>\n"
  }

  /// A collapsible `<details>` with what the record carried (the JSON report's `actual`: the
  /// provider's status and calls, the property's value, the screen), indented JSON escaped for
  /// the page, cut at ``payloadLimit`` bytes (saying so); empty when the violation has none.
  static func payload(_ violation: PlanViolation) -> String {
    guard let evidence = violation.evidence else { return "" }
    let json = JSONWriter.string(pretty: true) { out in
      out.escapesLineSeparators = true
      evidence.writeActual(into: &out)
    }
    let total = json.utf8.count
    var shown = json
    if total > payloadLimit {
      var end = payloadLimit
      let bytes = Array(json.utf8)
      // Back to the start of a character.
      while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
      shown = String(decoding: bytes[..<end], as: UTF8.self) + "\n…"
    }
    var out = "<details class=\"payload\"><summary>payload (what the record carried"
    out += total > payloadLimit ? ", first \(payloadLimit) of \(total) bytes shown)" : ")"
    out += "</summary><pre>" + MarkupText.escape(shown) + "</pre></details>"
    return out
  }

  private static func sources(_ report: ValidationReport, violations: Int, into out: inout String) {
    out += "<h2>Sources</h2>\n"
    guard !report.sources.isEmpty else {
      out += "<p class=\"muted\">\(report.records) records, \(violations) violations.</p>\n"
      return
    }
    out +=
      "<table class=\"sources\"><thead><tr><th>source</th><th>records</th><th>violations</th></tr></thead>"
    out += "<tbody>\n"
    for total in report.sources {
      out +=
        "<tr><td>"
        + (total.source.map(MarkupText.escape) ?? "<span class=\"muted\">recorded in the app</span>")
      out += "</td><td class=\"num\">\(total.records)</td><td class=\"num\">\(total.violations)</td></tr>\n"
    }
    out += "</tbody></table>\n"
  }

  private static func problems(_ report: ValidationReport, into out: inout String) {
    for (title, list, total) in [
      ("Unreadable lines (skipped)", report.problems, report.problems.count),
      (
        "seq out of order (records checked in file order)", report.sequenceAnomalies, report.sequence.reported
      ),
    ]
    where total > 0 {
      out += "<h2>" + MarkupText.escape(title) + " <span class=\"muted\">(\(total))</span></h2>\n<ul>\n"
      for problem in list.prefix(problemsListed) {
        out += "<li><code class=\"where\">" + MarkupText.escape(problem.description) + "</code></li>\n"
      }
      if total > problemsListed { out += "<li class=\"muted\">… and \(total - problemsListed) more</li>\n" }
      out += "</ul>\n"
    }
  }
}
