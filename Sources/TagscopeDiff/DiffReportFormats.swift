import TaggingPlan
import TaggingPlanReports
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
      out.object { out in
        out.key("base", first: true)
        side(&out, file: baseFile, records: diff.baseRecords, tags: diff.baseTags)
        out.key("new")
        side(&out, file: newFile, records: diff.newRecords, tags: diff.newTags)
        out.key("regressed")
        out.bool(regressed)
        out.key("failOn")
        out.array(DiffChange.allCases.filter(failOn.contains)) { $0.string($1.rawValue) }
        out.key("counts")
        out.object { out in
          for (index, entry) in diff.counts.enumerated() {
            out.key(entry.change.rawValue, first: index == 0)
            out.int(entry.count)
          }
        }
        out.key("changes")
        out.array(diff.findings) { out, finding in change(&out, finding) }
        out.key("problems")
        out.stringArray(problems)
      }
    } + "\n"
  }

  private func side(_ out: inout JSONWriter, file: String, records: Int, tags: Int) {
    out.object { out in
      out.key("file", first: true)
      out.string(file)
      out.key("records")
      out.int(records)
      out.key("tags")
      out.int(tags)
    }
  }

  private func change(_ out: inout JSONWriter, _ finding: DiffFinding) {
    out.object { out in
      out.key("change", first: true)
      out.string(finding.change.rawValue)
      out.key("regression")
      out.bool(failOn.contains(finding.change))
      out.key("tag")
      out.object { out in
        out.key("kind", first: true)
        out.string(finding.tag.kind)
        out.key("name")
        out.string(finding.tag.name)
        out.key("screen")
        out.string(orNull: finding.tag.screen)
      }
      out.key("provider")
      out.string(orNull: finding.provider)
      out.key("call")
      out.string(orNull: finding.call)
      out.key("path")
      out.string(orNull: finding.path)
      out.key("base")
      out.string(orNull: finding.base)
      out.key("new")
      out.string(orNull: finding.new)
      out.key("baseCount")
      out.int(finding.baseCount)
      out.key("newCount")
      out.int(finding.newCount)
      out.key("message")
      out.string(finding.message)
    }
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
