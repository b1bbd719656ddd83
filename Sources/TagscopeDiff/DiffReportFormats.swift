import TaggingPlan
import TagscopeRecording

/// The report formats of `tagscope diff`.
public enum DiffFormat: String, Sendable, CaseIterable {
  case text, json, junit, markdown

  /// `report` in this format.
  public func render(_ report: DiffReport) -> String {
    switch self {
    case .text: report.text()
    case .json: report.json()
    case .junit: report.junit()
    case .markdown: report.markdown()
    }
  }
}

extension DiffReport {
  /// One JSON object: the files, the verdict, counts by change and every change.
  public func json() -> String {
    JSONWriter.string(capacity: 4096 + diff.findings.count * 256) { out in
      out.byte(UInt8(ascii: "{"))
      out.key("base", first: true)
      side(&out, file: baseFile, records: diff.baseRecords, tags: diff.baseTags)
      out.key("new", first: false)
      side(&out, file: newFile, records: diff.newRecords, tags: diff.newTags)
      out.key("regressed", first: false)
      out.bool(regressed)
      out.key("failOn", first: false)
      out.byte(UInt8(ascii: "["))
      for (index, change) in DiffChange.allCases.filter(failOn.contains).enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        out.string(change.rawValue)
      }
      out.byte(UInt8(ascii: "]"))
      out.key("counts", first: false)
      out.byte(UInt8(ascii: "{"))
      for (index, entry) in diff.counts.enumerated() {
        out.key(entry.change.rawValue, first: index == 0)
        out.int(Int64(entry.count))
      }
      out.byte(UInt8(ascii: "}"))
      out.key("changes", first: false)
      out.byte(UInt8(ascii: "["))
      for (index, finding) in diff.findings.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        change(&out, finding)
      }
      out.byte(UInt8(ascii: "]"))
      out.key("problems", first: false)
      out.byte(UInt8(ascii: "["))
      for (index, problem) in problems.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        out.string(problem)
      }
      out.byte(UInt8(ascii: "]"))
      out.byte(UInt8(ascii: "}"))
    } + "\n"
  }

  private func side(_ out: inout JSONWriter, file: String, records: Int, tags: Int) {
    out.byte(UInt8(ascii: "{"))
    out.key("file", first: true)
    out.string(file)
    out.key("records", first: false)
    out.int(Int64(records))
    out.key("tags", first: false)
    out.int(Int64(tags))
    out.byte(UInt8(ascii: "}"))
  }

  private func change(_ out: inout JSONWriter, _ finding: DiffFinding) {
    out.byte(UInt8(ascii: "{"))
    out.key("change", first: true)
    out.string(finding.change.rawValue)
    out.key("regression", first: false)
    out.bool(failOn.contains(finding.change))
    out.key("tag", first: false)
    out.byte(UInt8(ascii: "{"))
    out.key("kind", first: true)
    out.string(finding.tag.kind)
    out.key("name", first: false)
    out.string(finding.tag.name)
    out.key("screen", first: false)
    optional(&out, finding.tag.screen)
    out.byte(UInt8(ascii: "}"))
    for (name, value) in [
      ("provider", finding.provider), ("call", finding.call), ("path", finding.path), ("base", finding.base),
      ("new", finding.new),
    ] {
      out.key(name, first: false)
      optional(&out, value)
    }
    out.key("baseCount", first: false)
    out.int(Int64(finding.baseCount))
    out.key("newCount", first: false)
    out.int(Int64(finding.newCount))
    out.key("message", first: false)
    out.string(finding.message)
    out.byte(UInt8(ascii: "}"))
  }

  private func optional(_ out: inout JSONWriter, _ value: String?) {
    if let value { out.string(value) } else { out.raw("null") }
  }

  /// One test case per tag signature of either recording: failed when one of its changes is at
  /// `--fail-on` (the message lists them), passed otherwise (its other changes in the output).
  public func junit() -> String {
    let changed = Dictionary(byTag.map { ($0.tag, $0.findings) }, uniquingKeysWith: +)
    let tags = diff.allTags
    let failing = tags.filter { tag in changed[tag]?.contains { failOn.contains($0.change) } ?? false }.count
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"tagscope diff\" tests=\"\(tags.count)\" failures=\"\(failing)\">\n"
    out += "  <testsuite name=\"\(MarkupText.escape(baseFile)) → \(MarkupText.escape(newFile))\" "
    out += "tests=\"\(tags.count)\" failures=\"\(failing)\" errors=\"\(problems.count)\">\n"
    for tag in tags {
      let findings = changed[tag] ?? []
      let failures = findings.filter { failOn.contains($0.change) }
      var body = ""
      if !failures.isEmpty {
        let message = failures.map { "\($0.change.rawValue): \($0.message)" }.joined(separator: "\n")
        body +=
          "<failure message=\"\(MarkupText.escape(failures[0].message))\" type=\"\(failures[0].change.rawValue)\">"
        body += MarkupText.escape(message) + "</failure>"
      }
      let others = findings.filter { !failOn.contains($0.change) }
      if !others.isEmpty {
        body += "<system-out>"
        body += MarkupText.escape(
          others.map { "\($0.change.rawValue): \($0.message)" }.joined(separator: "\n"))
        body += "</system-out>"
      }
      out +=
        "    " + JUnitReport.testCase(classname: "diff.\(tag.kind)", name: tag.description, body: body) + "\n"
    }
    for problem in problems {
      out += "    <testcase classname=\"diff.recording\" name=\"\(MarkupText.escape(problem))\">"
      out += "<error message=\"unreadable line\">\(MarkupText.escape(problem))</error></testcase>\n"
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }
}
