import TaggingPlan
import TagscopeRecording

/// The report for CI systems: one test case per coverage item (each planned tag and each planned
/// tag × screen × provider expectation), its outcome its coverage state: a failing item (any of
/// its records broke it) fails (its violations at or above `--fail-on`; one failing only with
/// lower ones passes and says so), a passed item passes, an item not seen
/// or only blocked is skipped (with the blocking reasons). Each case names its plan file and line;
/// failures quote the recording's `file:line` of each violation. Unplanned tags and provider rules
/// outside planned items get their own test cases, unreadable lines an error each.
public enum JUnitReport {
  /// Messages quoted in one failure body.
  static let messagesPerFailure = 20
  /// Unreadable lines listed as test cases; the rest are counted in one more.
  static let problemCases = 100

  /// The report as a JUnit XML document.
  public static func render(_ report: ValidationReport, failOn: Severity) -> String {
    var tally = JUnitTally(planned: report.coverage.planned, failOn: failOn)
    for (violation, site) in zip(report.violations, report.violationSites()) {
      tally.add(violation, at: site)
    }
    return render(report, tally: tally)
  }

  /// The report as a JUnit XML document, its violations those of `tally` (a streamed run's report
  /// has none of its own).
  static func render(_ report: ValidationReport, tally: JUnitTally) -> String {
    let coverage = report.coverage
    let failOn = tally.failOn
    let suite = "plan \(report.plan.title)"
    let planFile = report.plan.file
    var cases: [String] = []
    var failures = 0
    var skipped = 0
    for (index, item) in coverage.items.enumerated() {
      let owner = item.isCatalogueEntry ? "\(item.provider ?? "").\(item.noun) " : ""
      let classname = "\(report.plan.name).\(item.sectionKey).\(owner)\(item.tag)"
      let found = tally.items.indices.contains(index) ? tally.items[index] : JUnitTally.Item()
      let state = coverage.state(at: index)
      let records = coverage.counts[index]
      var body = ""
      switch state {
      case .failing(let rules, _, _):
        let summary = state.description
        if found.firstFailing != nil || found.found.count == 0 {
          failures += 1
          let first = (found.firstFailing ?? found.found.listed.first)?.first
          let type = found.firstFailing?.rule.rawValue ?? rules.first?.rawValue ?? "failing"
          body +=
            "<failure type=\"\(MarkupText.escape(type))\" message=\"\(MarkupText.escape(summary + (first ?? "")))\">"
          body += MarkupText.escape(found.found.messages) + "</failure>"
        } else {
          body +=
            "<system-out>\(MarkupText.escape(summary + ", below --fail-on \(failOn.rawValue):\n" + found.found.messages))</system-out>"
        }
      case .passed:
        if found.found.count > 0 {
          let text = "passed on all \(records) records; violations noted beside it:\n"
          body += "<system-out>\(MarkupText.escape(text + found.found.messages))</system-out>"
        }
      case .notSeen, .blocked:
        skipped += 1
        let why =
          if case .blocked(let reasons) = state {
            "blocked (\(reasons.joined(separator: ", "))): the provider never received it"
          } else { "not seen in the recording" }
        body += "<skipped message=\"\(MarkupText.escape("\(why) (plan line \(item.location.line))"))\"/>"
        if found.found.count > 0 {
          body += "<system-out>\(MarkupText.escape(found.found.messages))</system-out>"
        }
      }
      cases.append(
        testCase(
          classname: classname, name: item.id, file: planFile, line: item.location.line, body: body))
    }
    for (name, group) in [
      ("unplanned tags", tally.unplanned), ("provider rules outside the plan", tally.unattached),
    ]
    where group.failing.count + group.others.count > 0 {
      var body = ""
      if let first = group.failing.listed.first {
        failures += 1
        let count = group.failing.count
        let summary = "\(count) violation\(count == 1 ? "" : "s")" + first.first
        body += "<failure type=\"\(first.rule.rawValue)\" message=\"\(MarkupText.escape(summary))\">"
        body += MarkupText.escape(group.failing.messages) + "</failure>"
      }
      if group.others.count > 0 {
        body += "<system-out>\(MarkupText.escape(group.others.messages))</system-out>"
      }
      cases.append(testCase(classname: "\(report.plan.name).plan", name: name, body: body))
    }
    // Unreadable lines are errors of the recording (one case per line, the first 100 of them).
    var errors = 0
    for problem in report.problems.prefix(problemCases) {
      errors += 1
      let type = report.readFailures.contains(problem) ? "readFailure" : "unreadableLine"
      let body = "<error type=\"\(type)\" message=\"\(MarkupText.escape(problem.message))\"/>"
      cases.append(
        testCase(
          classname: "\(report.plan.name).recording", name: "\(problem.file):\(problem.line)",
          file: problem.file,
          line: problem.line, body: body))
    }
    if report.problems.count > problemCases {
      errors += 1
      let more = "\(report.problems.count - problemCases) more unreadable lines"
      cases.append(
        testCase(
          classname: "\(report.plan.name).recording", name: "more unreadable lines",
          body: "<error type=\"unreadableLine\" message=\"\(MarkupText.escape(more))\"/>"))
    }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let counts =
      "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
    out += "<testsuites name=\"tagscope validate\" \(counts)>\n"
    let timestamp = report.meta.map { " timestamp=\"\(String($0.generatedText.prefix(19)))\"" } ?? ""
    out += "  <testsuite name=\"\(MarkupText.escape(suite))\" \(counts)\(timestamp)>\n"
    out += "    <properties>"
    if let meta = report.meta { out += properties(meta) }
    out += "<property name=\"records\" value=\"\(report.records)\"/>"
    out += "<property name=\"violations\" value=\"\(tally.total)\"/>"
    out += "<property name=\"coverage\" value=\"\(MarkupText.escape(coverage.summary))\"/>"
    if let delivery = report.delivery { out += Self.property(delivery) }
    out += "</properties>\n"
    for testCase in cases { out += "    " + testCase + "\n" }
    if let delivery = report.delivery, !delivery.problems.isEmpty {
      out += "    " + Self.systemOut(delivery) + "\n"
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  /// The metadata as properties: `generated`, `tagscope.version`, `plan.file`, `plan.name`,
  /// `plan.version`, then per recording `recording.N.file`, `.app`, `.appVersion`, `.appBuild`,
  /// `.device`, `.started` (each when known; N from 1).
  static func properties(_ meta: ReportMeta) -> String {
    var pairs: [(String, String)] = [
      ("generated", meta.generatedText), ("tagscope.version", meta.toolVersion), ("plan.file", meta.planFile),
      ("plan.name", meta.planName),
    ]
    if let version = meta.planVersion { pairs.append(("plan.version", version)) }
    for (index, recording) in meta.recordings.prefix(ReportMeta.recordingsListed).enumerated() {
      let prefix = "recording.\(index + 1)."
      pairs.append((prefix + "file", recording.file))
      for (name, value) in [
        ("app", recording.app), ("appVersion", recording.appVersion), ("appBuild", recording.appBuild),
        ("device", recording.device),
        ("started", recording.startedMilliseconds.map { ISO8601Timestamp.string(milliseconds: $0) }),
      ] {
        if let value { pairs.append((prefix + name, value)) }
      }
    }
    if meta.recordings.count > ReportMeta.recordingsListed {
      pairs.append(("recordings", String(meta.recordings.count)))
    }
    return pairs.map {
      "<property name=\"\(MarkupText.escape($0.0))\" value=\"\(MarkupText.escape($0.1))\"/>"
    }
    .joined()
  }

  package static func testCase(
    classname: String, name: String, file: String? = nil, line: Int? = nil, body: String
  )
    -> String
  {
    var open = "<testcase classname=\"\(MarkupText.escape(classname))\" name=\"\(MarkupText.escape(name))\""
    if let file { open += " file=\"\(MarkupText.escape(file))\"" }
    if let line { open += " line=\"\(line)\"" }
    return body.isEmpty ? open + "/>" : open + ">" + body + "</testcase>"
  }
}
