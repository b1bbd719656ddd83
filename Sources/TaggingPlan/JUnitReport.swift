/// The report for CI systems: one test case per coverage item (each planned tag and each planned
/// tag × screen × provider expectation). An item with violations at or above `--fail-on` fails,
/// one never seen is skipped; unplanned tags and provider rules outside planned items get their
/// own test cases.
public enum JUnitReport {
  /// Messages quoted in one failure body.
  static let messagesPerFailure = 20
  /// Unreadable lines listed as test cases; the rest are counted in one more.
  static let problemCases = 100

  /// The report as a JUnit XML document.
  public static func render(_ report: ValidationReport, failOn: Severity) -> String {
    let coverage = report.coverage
    var byItem = [[PlanViolation]](repeating: [], count: coverage.planned)
    var unplanned: [PlanViolation] = []
    var unattached: [PlanViolation] = []
    for violation in report.violations {
      if let item = violation.coverageItem {
        byItem[item].append(violation)
      } else if violation.rule == .unplannedTag {
        unplanned.append(violation)
      } else {
        unattached.append(violation)
      }
    }
    let suite = "plan \(report.plan.title)"
    var cases: [String] = []
    var failures = 0
    var skipped = 0
    for (index, item) in coverage.items.enumerated() {
      let classname = "\(report.plan.name).\(item.section.key).\(item.tag)"
      let failing = byItem[index].filter { $0.severity >= failOn }
      let others = byItem[index].filter { $0.severity < failOn }
      var body = ""
      if !failing.isEmpty {
        failures += 1
        body += failure(failing)
      } else if !coverage.isSeen(index) {
        skipped += 1
        body += "<skipped message=\"not seen in the recording (plan line \(item.location.line))\"/>"
      }
      if !others.isEmpty { body += "<system-out>\(escape(messages(others)))</system-out>" }
      cases.append(testCase(classname: classname, name: item.id, body: body))
    }
    for (name, violations) in [
      ("unplanned tags", unplanned), ("provider rules outside the plan", unattached),
    ]
    where !violations.isEmpty {
      let failing = violations.filter { $0.severity >= failOn }
      let others = violations.filter { $0.severity < failOn }
      var body = ""
      if !failing.isEmpty {
        failures += 1
        body += failure(failing)
      }
      if !others.isEmpty { body += "<system-out>\(escape(messages(others)))</system-out>" }
      cases.append(testCase(classname: "\(report.plan.name).plan", name: name, body: body))
    }
    // Unreadable lines are errors of the recording (one case per line, the first 100 of them).
    var errors = 0
    for problem in report.problems.prefix(problemCases) {
      errors += 1
      let body = "<error type=\"unreadableLine\" message=\"\(escape(problem.message))\"/>"
      cases.append(
        testCase(
          classname: "\(report.plan.name).recording", name: "\(problem.file):\(problem.line)", body: body))
    }
    if report.problems.count > problemCases {
      errors += 1
      let more = "\(report.problems.count - problemCases) more unreadable lines"
      cases.append(
        testCase(
          classname: "\(report.plan.name).recording", name: "more unreadable lines",
          body: "<error type=\"unreadableLine\" message=\"\(escape(more))\"/>"))
    }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let counts =
      "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
    out += "<testsuites name=\"tagscope validate\" \(counts)>\n"
    out += "  <testsuite name=\"\(escape(suite))\" \(counts)>\n"
    out += "    <properties><property name=\"records\" value=\"\(report.records)\"/>"
    out += "<property name=\"coverage\" value=\"\(escape(coverage.summary))\"/></properties>\n"
    for testCase in cases { out += "    " + testCase + "\n" }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  static func testCase(classname: String, name: String, body: String) -> String {
    let open = "<testcase classname=\"\(escape(classname))\" name=\"\(escape(name))\""
    return body.isEmpty ? open + "/>" : open + ">" + body + "</testcase>"
  }

  static func failure(_ violations: [PlanViolation]) -> String {
    let first = violations[0]
    let summary = "\(violations.count) violation\(violations.count == 1 ? "" : "s"): \(first.message)"
    return
      "<failure type=\"\(first.rule.rawValue)\" message=\"\(escape(summary))\">\(escape(messages(violations)))</failure>"
  }

  static func messages(_ violations: [PlanViolation]) -> String {
    var lines = violations.prefix(messagesPerFailure).map {
      "#\($0.seq) [\($0.severity.rawValue)] \($0.rule.rawValue): \($0.message)"
    }
    if violations.count > messagesPerFailure {
      lines.append("… and \(violations.count - messagesPerFailure) more")
    }
    return lines.joined(separator: "\n")
  }

  /// Escapes XML markup characters and replaces characters XML 1.0 cannot carry.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n", "\t": out.unicodeScalars.append(scalar)
      case "\r": out += "&#13;"
      default:
        let value = scalar.value
        let allowed =
          value >= 0x20 && !(0xD800...0xDFFF).contains(value) && value != 0xFFFE && value != 0xFFFF
        out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
      }
    }
    return out
  }
}
