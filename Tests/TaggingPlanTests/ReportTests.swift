import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan

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
  }

  func testTextGroupsBySeverityAndListsWhatWasNotSeen() throws {
    let text = TextReport.render(try sampleReport())
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(
      lines[0], "plan Podcasts v3 · 4 records · 2 errors, 1 warning · 4/16 passed, 1 failing, 11 not seen")
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
    XCTAssertTrue(lines.contains("not yet seen (11 of 16)"))
    XCTAssertTrue(lines.contains("  screen favorites (plan line 7)"))
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
    XCTAssertEqual(collector.suiteAttributes["failures"], "2")
    XCTAssertEqual(collector.suiteAttributes["errors"], "1")
    XCTAssertEqual(collector.cases.last?.name, "r.jsonl:7")
    XCTAssertEqual(collector.suiteAttributes["skipped"], "11")
    let failing = collector.cases.filter { $0.failure != nil }
    XCTAssertEqual(failing.map(\.name), ["action playPodcast on favorites: firebase", "unplanned tags"])
    XCTAssertEqual(failing[0].failureType, "wrong-name")
    XCTAssertTrue(failing[1].failure?.contains("evil<&>\"'\u{FFFD}\nname") ?? false)
    let warned = try XCTUnwrap(collector.cases.first { $0.name == "event playerDidFail" })
    XCTAssertNil(warned.failure)
    XCTAssertTrue(warned.output.contains("[warning] invalid-value"))
    XCTAssertEqual(collector.cases.filter(\.skipped).count, 11)

    let strict = JUnitReport.render(report, failOn: .warning)
    let strictCollector = JUnitCollector()
    let strictParser = XMLParser(data: Data(strict.utf8))
    strictParser.delegate = strictCollector
    XCTAssertTrue(strictParser.parse())
    XCTAssertEqual(strictCollector.suiteAttributes["failures"], "3")
  }
}

/// Collects test cases from a JUnit document.
private final class JUnitCollector: NSObject, XMLParserDelegate {
  struct Case {
    var name: String
    var failure: String?
    var failureType: String?
    var skipped = false
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
    case "testcase": cases.append(Case(name: attributes["name"] ?? ""))
    case "failure": cases[cases.count - 1].failureType = attributes["type"]
    case "skipped": cases[cases.count - 1].skipped = true
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
