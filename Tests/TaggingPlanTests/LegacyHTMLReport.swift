import TagscopeRecording

@testable import TaggingPlan
@testable import TaggingPlanReports

/// The HTML report as rendered before ``HTMLTally`` (every violation kept, grouped at the end),
/// verbatim but for its name and three fixes: the violations whose comparisons merge into one table
/// are those of the same record, not of the same `seq` (two recordings both have a `seq` 5); a
/// group's heading names its own plan line, not that of the first violation merged into its
/// table; and the where and time cells do not break inside `file:line` or a time. The reference ``StreamedHTMLReportTests`` checks the tallied page's bytes against, so that
/// tallying changed nothing a reader sees.
enum LegacyHTMLReport {
  /// Groups (rule, tag, provider, plan line) shown per rule; the rest are counted.
  static let groupsPerRule = 50
  /// Occurrences listed per group; the rest are counted.
  static let occurrencesPerGroup = 10
  /// Unreadable lines and seq anomalies listed; the rest are counted.
  static let problemsListed = 20
  /// Bytes of a violation's payload shown; the rest are cut, and the page says so.
  static let payloadLimit = 4096

  /// The report as an HTML document; violations at or above `failOn` are the ones that fail.
  static func render(_ report: ValidationReport, failOn: Severity) -> String {
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<title>" + MarkupText.escape("tagscope validate · plan \(report.plan.title)") + "</title>\n"
    out += "<style>\n" + style + "</style>\n</head>\n<body>\n"
    summary(report, failOn: failOn, into: &out)
    if let meta = report.meta { header(meta, into: &out) }
    matrix(report.coverage, into: &out)
    violations(report, into: &out)
    sources(report, into: &out)
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

  private static func summary(_ report: ValidationReport, failOn: Severity, into out: inout String) {
    let errors = report.count(.error)
    let warnings = report.count(.warning)
    let fails = report.fails(at: failOn)
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
  private static func violations(_ report: ValidationReport, into out: inout String) {
    out += "<h2>Violations</h2>\n"
    guard !report.violations.isEmpty else {
      out += "<p>None.</p>\n"
      return
    }
    // Grouped in one pass, each group extended in place (no copy per violation).
    var byRule: [ViolationRule: [ViolationGroup]] = [:]
    for group in ViolationGroup.group(
      Array(report.violations.indices), of: report.violations, byPlanLine: true)
    {
      byRule[group.rule, default: []].append(group)
    }
    // The violations about the same call as a group's first (same record, provider and call)
    // share one table, shown with the first group that has one of them. A record is known by the
    // position of its first violation: its site's, or without a site its run of one `seq`'s.
    let sites = report.violationSites()
    var records = Array(report.violations.indices)
    for index in report.violations.indices {
      if let site = sites[index] {
        records[index] = site.firstViolation
      } else if index > 0, sites[index - 1] == nil,
        report.violations[index - 1].seq == report.violations[index].seq
      {
        records[index] = records[index - 1]
      }
    }
    struct Call: Hashable {
      var record: Int
      var subject: PlanViolation.Subject
    }
    var shownFirst = Set<Int>()
    for groups in byRule.values {
      for group in groups.prefix(groupsPerRule) {
        if let first = group.indexes.first { shownFirst.insert(records[first]) }
      }
    }
    var sameCall: [Call: [Int]] = [:]
    for (index, violation) in report.violations.enumerated() where shownFirst.contains(records[index]) {
      if let subject = violation.subject {
        sameCall[Call(record: records[index], subject: subject), default: []].append(index)
      }
    }
    var tabled = Set<Call>()
    for rule in ViolationRule.allCases {
      guard let groups = byRule[rule] else { continue }
      let total = groups.reduce(0) { $0 + $1.indexes.count }
      out += "<h3>" + MarkupText.escape(rule.rawValue) + " <span class=\"muted\">(\(total))</span></h3>\n"
      for group in groups.prefix(groupsPerRule) {
        let indexes = group.indexes
        guard let first = indexes.first else { continue }
        let violation = report.violations[first]
        let call = violation.subject.map { Call(record: records[first], subject: $0) }
        let comparison =
          call.flatMap { sameCall[$0] }.flatMap {
            ExpectationComparison.grouped($0.map { report.violations[$0] }).first?.comparison
          } ?? violation.comparison
        var heading = "\(group.severity.rawValue) · \(group.tag)"
        if let provider = group.provider { heading += " · \(provider)" }
        if let line = group.planLine { heading += " · \(comparison.planFile) line \(line)" }
        out +=
          "<p><strong>" + MarkupText.escape(heading)
          + "</strong> <span class=\"muted\">(\(indexes.count)×)</span></p>\n"
        if let call, tabled.contains(call) {
          out +=
            "<p class=\"muted\">Expected vs got: the table of #\(violation.seq) "
            + MarkupText.escape(comparison.title) + " above.</p>\n"
        } else {
          if let call { tabled.insert(call) }
          table(comparison, into: &out)
        }
        out += "<table class=\"occurrences\"><thead><tr><th>where</th><th>seq</th>"
        out += "<th>time</th><th>source</th><th>message</th></tr></thead><tbody>\n"
        // Occurrences from identical records share their payload: shown once.
        var shown: [PlanViolation] = []
        for index in indexes.prefix(occurrencesPerGroup) {
          let violation = report.violations[index]
          let site = report.site(ofViolationAt: index)
          out += "<tr><td class=\"mono where\">" + HTMLReport.place(site) + "</td>"
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
        if indexes.count > occurrencesPerGroup {
          out += "<p class=\"muted\">… and \(indexes.count - occurrencesPerGroup) more</p>\n"
        }
      }
      if groups.count > groupsPerRule {
        out += "<p class=\"muted\">… and \(groups.count - groupsPerRule) more groups</p>\n"
      }
    }
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

  private static func sources(_ report: ValidationReport, into out: inout String) {
    out += "<h2>Sources</h2>\n"
    guard !report.sources.isEmpty else {
      out += "<p class=\"muted\">\(report.records) records, \(report.violations.count) violations.</p>\n"
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
