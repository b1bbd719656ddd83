import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

#if canImport(FoundationXML)
  import FoundationXML
#endif

final class ReportTests: XCTestCase {
  private func sampleReport() throws -> ValidationReport {
    let plan = try samplePlan()
    var wrong = goodPlay(2, screen: "favorites")
    wrong.outputs[0] = sent(
      "firebase", "play_podcast_from_podcasts", ["podcast_title": "T", "podcast_duration": 1])
    let hostile = record(3, .userAction, "evil<&>\"'\u{1}\nname", screen: "podcasts")
    let fail = record(4, .event, "playerDidFail", ["error": "timeout"], screen: "podcastPlayer")
    let (violations, validator) = validate([goodPlay(1), wrong, hostile, fail], plan: plan)
    return ValidationReport(
      plan: plan, violations: violations, coverage: validator.coverage, records: validator.records,
      problems: [RecordingProblem(file: "r.jsonl", line: 7, message: "invalid JSON")])
  }

  private struct JSONShape: Decodable {
    struct Violation: Decodable {
      var seq: UInt64
      var severity: String
      var rule: String
      var tag: String
      var provider: String?
      var message: String
    }
    struct CoverageShape: Decodable {
      var planned: Int
      var seen: Int
      var missing: [String]
    }
    var violations: [Violation]
    var coverage: CoverageShape
    var records: Int
  }

  func testJSONParsesBackWithExactlyTheDocumentedKeys() throws {
    let report = try sampleReport()
    let text = JSONReport.render(report)
    let decoded = try JSONDecoder().decode(JSONShape.self, from: Data(text.utf8))
    XCTAssertEqual(decoded.records, 4)
    XCTAssertEqual(decoded.violations.map(\.seq), [2, 3, 4])
    XCTAssertEqual(decoded.violations.map(\.rule), ["wrong-name", "unplanned-tag", "invalid-value"])
    XCTAssertEqual(decoded.violations.map(\.severity), ["error", "error", "warning"])
    XCTAssertEqual(decoded.violations.map(\.provider), ["firebase", nil, nil])
    XCTAssertEqual(decoded.violations[1].tag, "evil<&>\"'\u{1}\nname")
    XCTAssertEqual(decoded.violations.map(\.message), report.violations.map(\.message))
    XCTAssertEqual(decoded.coverage.planned, report.coverage.planned)
    XCTAssertEqual(decoded.coverage.seen, report.coverage.seenCount)
    XCTAssertEqual(decoded.coverage.missing, report.coverage.missing.map(\.id))
    XCTAssertTrue(
      text.hasPrefix("{\"violations\":[{\"seq\":2,\"severity\":\"error\",\"rule\":\"wrong-name\",\"tag\":"))
    XCTAssertTrue(text.contains("\"provider\":null"))
    // Built from records in memory: no site; the plan line and the comparison are there.
    XCTAssertTrue(text.contains("\"file\":null,\"line\":null,\"time\":null,\"source\":null"))
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let violations = try XCTUnwrap(object["violations"] as? [[String: Any]])
    XCTAssertEqual(violations.map { $0["planLine"] as? Int }, [21, nil, 28])
    let constraints = try XCTUnwrap(
      (violations[2]["expected"] as? [String: Any])?["constraints"] as? [String: Any])
    XCTAssertEqual(constraints["enum"] as? [String], ["network", "decoding"])
    XCTAssertEqual((violations[2]["actual"] as? [String: Any])?["value"] as? String, "timeout")
    let items = try XCTUnwrap((object["coverage"] as? [String: Any])?["items"] as? [[String: Any]])
    XCTAssertEqual(items.count, 16)
    XCTAssertEqual(
      items.first { $0["id"] as? String == "event playerDidFail" }?["rules"] as? [String], ["invalid-value"])
  }

  func testJSONWrittenToAFileIsTheRenderedReport() throws {
    let report = try sampleReport()
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "report-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    try ReportFormat.json.write(report, failOn: .error, to: handle)
    try handle.close()
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), JSONReport.render(report))
  }

  func testTextGroupsBySeverityAndListsWhatWasNotSeen() throws {
    let text = TextReport.render(try sampleReport())
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(
      lines[0], "plan Podcasts v3 · 4 records · 2 errors, 1 warning · 3/16 passed, 2 failing, 11 not seen")
    XCTAssertTrue(lines.contains("  r.jsonl:7: invalid JSON"))
    let errors = try XCTUnwrap(lines.firstIndex(of: "errors"))
    let warnings = try XCTUnwrap(lines.firstIndex(of: "warnings"))
    XCTAssertLessThan(errors, warnings)
    XCTAssertEqual(lines[errors + 1], "  wrong-name · playPodcast · firebase (1×)")
    XCTAssertEqual(
      lines[errors + 2],
      "    #2 playPodcast on favorites: firebase got play_podcast_from_podcasts, plan line 21 expects play_podcast_from_favorites"
    )
    XCTAssertEqual(lines[warnings + 1], "  invalid-value · playerDidFail (1×)")
    // The checklist lists what did not pass, by state: failing (how many records broke it, the
    // rules), then not seen. Broken by one record of two is failing.
    XCTAssertTrue(lines.contains("coverage: 3/16 passed, 2 failing, 11 not seen"), text)
    XCTAssertTrue(
      lines.contains("  ✗ failing · 1 of 1 broke it (invalid-value) · event playerDidFail · plan line 25"),
      text)
    XCTAssertTrue(
      lines.contains(
        "  ✗ failing · 1 of 2 broke it (wrong-name) · action playPodcast on favorites: firebase · plan line 21"
      ),
      text)
    XCTAssertTrue(lines.contains("  · not seen · screen favorites · plan line 7"), text)
    XCTAssertFalse(text.contains("✓"), "passed items are only counted")
  }

  func testTextShowsAFewExamplesPerGroup() throws {
    let plan = try samplePlan()
    let records = (1...8).map { record(UInt64($0), .userAction, "unknownAction") }
    let (violations, validator) = validate(records, plan: plan)
    let report = ValidationReport(
      plan: plan, violations: violations, coverage: validator.coverage, records: 8)
    let text = TextReport.render(report)
    XCTAssertTrue(text.contains("  unplanned-tag · unknownAction (8×)\n"))
    XCTAssertTrue(
      text.contains("    #5 unknownAction: action unknownAction is not in the plan\n    … and 3 more\n"))
    XCTAssertFalse(text.contains("#6 "))
  }

  func testJUnitIsWellFormedWithOneCasePerExpectation() throws {
    let report = try sampleReport()
    let xml = JUnitReport.render(report, failOn: .error)
    let collector = JUnitCollector()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = collector
    XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "") in\n\(xml)")
    // One case per expectation, one for unplanned tags, one per unreadable line (an error).
    XCTAssertEqual(collector.cases.count, report.coverage.planned + 2)
    XCTAssertEqual(collector.suiteAttributes["tests"], String(report.coverage.planned + 2))
    // Outcomes follow the coverage states: favorites: firebase passed once then broke (failing),
    // playerDidFail is failing with a warning only (below --fail-on error).
    XCTAssertEqual(collector.suiteAttributes["failures"], "2")
    XCTAssertEqual(collector.suiteAttributes["errors"], "1")
    XCTAssertEqual(collector.cases.last?.name, "r.jsonl:7")
    XCTAssertEqual(collector.suiteAttributes["skipped"], "11")
    let failing = collector.cases.filter { $0.failure != nil }
    XCTAssertEqual(failing.map(\.name), ["action playPodcast on favorites: firebase", "unplanned tags"])
    XCTAssertTrue(failing[1].failure?.contains("evil<&>\"'\u{FFFD}\nname") ?? false)
    let partly = try XCTUnwrap(
      collector.cases.first { $0.name == "action playPodcast on favorites: firebase" })
    XCTAssertEqual(partly.failureType, "wrong-name")
    XCTAssertTrue(
      partly.failureMessage?.hasPrefix("failing · 1 of 2 broke it (wrong-name), first") ?? false,
      partly.failureMessage ?? "")
    XCTAssertTrue(partly.failure?.contains("#2 [error] wrong-name") ?? false)
    XCTAssertEqual(partly.attributes["file"], "sample.yaml")
    XCTAssertEqual(partly.attributes["line"], "21")
    let warned = try XCTUnwrap(collector.cases.first { $0.name == "event playerDidFail" })
    XCTAssertNil(warned.failure)
    XCTAssertTrue(warned.output.contains("[warning] invalid-value"))
    XCTAssertTrue(
      warned.output.hasPrefix("failing · 1 of 1 broke it (invalid-value), below --fail-on error")
    )
    XCTAssertEqual(collector.cases.filter(\.skipped).count, 11)
    XCTAssertEqual(
      collector.cases.first { $0.name == "screen favorites" }?.skipMessage,
      "not seen in the recording (plan line 7)")

    let strict = JUnitReport.render(report, failOn: .warning)
    let strictCollector = JUnitCollector()
    let strictParser = XMLParser(data: Data(strict.utf8))
    strictParser.delegate = strictCollector
    XCTAssertTrue(strictParser.parse())
    XCTAssertEqual(strictCollector.suiteAttributes["failures"], "3")
    let strictFailure = try XCTUnwrap(strictCollector.cases.first { $0.name == "event playerDidFail" })
    XCTAssertEqual(strictFailure.failureType, "invalid-value")
    XCTAssertTrue(
      strictFailure.failureMessage?.hasPrefix("failing · 1 of 1 broke it (invalid-value)") ?? false)
  }

  func testJUnitSkipsBlockedItemsWithTheReasonAndFailsFailingOnesWithFileAndLine() throws {
    let plan = try samplePlan()
    var blocked = goodPlay(1, screen: "podcasts")
    blocked.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    var wrong = goodPlay(2, screen: "favorites")
    wrong.outputs[1] = sent("amplitude", "Play", [:], method: "track")
    let (violations, validator) = validate([blocked, wrong], plan: plan)
    let report = ValidationReport(
      plan: plan, violations: violations, coverage: validator.coverage, records: 2, files: ["r.jsonl"],
      sites: [
        RecordSite(file: "r.jsonl", line: 3, seq: 2, timeMilliseconds: 0, source: nil, firstViolation: 0)
      ])
    let collector = JUnitCollector()
    let parser = XMLParser(data: Data(JUnitReport.render(report, failOn: .error).utf8))
    parser.delegate = collector
    XCTAssertTrue(parser.parse())
    let skipped = try XCTUnwrap(
      collector.cases.first { $0.name == "action playPodcast on podcasts: amplitude" })
    XCTAssertEqual(skipped.skipMessage, "blocked (consent): the provider never received it (plan line 22)")
    let failed = try XCTUnwrap(
      collector.cases.first { $0.name == "action playPodcast on favorites: amplitude" })
    XCTAssertEqual(failed.failureType, "wrong-name")
    XCTAssertTrue(
      failed.failureMessage?.hasPrefix(
        "failing · 1 of 1 broke it (wrong-name), first at r.jsonl:3 (#2)")
        ?? false, failed.failureMessage ?? "")
    XCTAssertTrue(failed.failure?.hasPrefix("r.jsonl:3 #2 [error] wrong-name: ") ?? false)
    let passed = try XCTUnwrap(
      collector.cases.first { $0.name == "action playPodcast on podcasts: firebase" })
    XCTAssertNil(passed.failure)
    XCTAssertFalse(passed.skipped)
  }
}

/// Collects test cases from a JUnit document.
private final class JUnitCollector: NSObject, XMLParserDelegate {
  struct Case {
    var name: String
    var attributes: [String: String] = [:]
    var failure: String?
    var failureType: String?
    var failureMessage: String?
    var skipped = false
    var skipMessage: String?
    var output = ""
  }

  var cases: [Case] = []
  var suiteAttributes: [String: String] = [:]
  private var text = ""

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    text = ""
    switch elementName {
    case "testsuite": suiteAttributes = attributes
    case "testcase": cases.append(Case(name: attributes["name"] ?? "", attributes: attributes))
    case "failure":
      cases[cases.count - 1].failureType = attributes["type"]
      cases[cases.count - 1].failureMessage = attributes["message"]
    case "skipped":
      cases[cases.count - 1].skipped = true
      cases[cases.count - 1].skipMessage = attributes["message"]
    default: break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
  ) {
    if elementName == "failure" { cases[cases.count - 1].failure = text }
    if elementName == "system-out" { cases[cases.count - 1].output = text }
  }
}
