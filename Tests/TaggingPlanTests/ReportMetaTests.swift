import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Every format says when it was made, by which tagscope, against which plan and which
/// recordings (their headers); the HTML page shows each violation's payload, escaped.
final class ReportMetaTests: XCTestCase {
  private var directory: URL!
  /// 2023-11-14T22:13:20.123Z: reports made at a fixed time are golden.
  private let generated = Date(timeIntervalSince1970: 1_700_000_000.123)
  private let hostile = "</pre></details><script>alert(1)</script>&amp;\u{202E}"

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "report-meta-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private var planPath: String { directory.appendingPathComponent("plan.yaml").path }
  private var recordingPath: String { directory.appendingPathComponent("run.jsonl").path }

  /// One recording whose header names the app's version and build (and carries a token no report
  /// may repeat), with a record whose firebase call is wrong and carries a hostile value.
  private func run(_ format: ReportFormat, extraRecords: [Record] = []) throws -> String {
    try Data(samplePlanYAML.utf8).write(to: URL(fileURLWithPath: planPath))
    let header = RecordingHeader(
      app: "Podcasts", device: "iPhone <15>", started: Date(timeIntervalSince1970: 1_699_999_000),
      extra: ["appVersion": "3.2.0", "build": 412, "token": "s3cr3t-token"])
    var wrong = goodPlay(2, screen: "podcasts")
    wrong.outputs[0] = sent("firebase", "play_podcast_from_favorites", ["podcast_title": .string(hostile)])
    let lines =
      [RecordLineEncoder.line(header)] + ([goodPlay(1), wrong] + extraRecords).map(RecordLineEncoder.line)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: recordingPath))
    let outcome = ValidateRunner.run(
      planPath: planPath, recordings: [recordingPath], format: format, failOn: .error, generated: generated)
    XCTAssertEqual(outcome.exitCode, 1, outcome.diagnostics)
    XCTAssertFalse(outcome.output.contains("s3cr3t"), "a header's token is never repeated")
    return outcome.output
  }

  func testTextHasAShortHeaderBlockUnderItsSummaryLine() throws {
    let text = try run(.text)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(
      Array(lines.prefix(4)),
      [
        "plan Podcasts v3 · 2 records · 1 error, 0 warnings · 6/16 passed, 1 failing, 9 not seen",
        "  tagscope \(TagscopeVersion.current) · generated 2023-11-14T22:13:20.123Z",
        "  plan file \(planPath) (Podcasts v3)",
        "  recording \(recordingPath): Podcasts 3.2.0 (412) · device iPhone <15> · "
          + "started 2023-11-14T21:56:40.000Z",
      ])
  }

  func testJSONMetaParsesAndTheOtherFieldsAreUnchanged() throws {
    struct Shape: Decodable {
      struct Meta: Decodable {
        struct PlanShape: Decodable {
          var file: String
          var name: String
          var version: String?
        }
        struct RecordingShape: Decodable {
          var file: String
          var formatVersion: Int
          var app: String?
          var appVersion: String?
          var appBuild: String?
          var device: String?
          var started: String?
        }
        var generated: String
        var tool: String
        var toolVersion: String
        var plan: PlanShape
        var recordings: [RecordingShape]
      }
      struct Violation: Decodable {
        var seq: UInt64
        var rule: String
        var line: Int?
      }
      var meta: Meta
      var violations: [Violation]
      var records: Int
    }
    let text = try run(.json)
    let decoded = try JSONDecoder().decode(Shape.self, from: Data(text.utf8))
    XCTAssertEqual(decoded.meta.generated, "2023-11-14T22:13:20.123Z")
    XCTAssertEqual(decoded.meta.tool, "tagscope")
    XCTAssertEqual(decoded.meta.toolVersion, TagscopeVersion.current)
    XCTAssertEqual(decoded.meta.plan.file, planPath)
    XCTAssertEqual(decoded.meta.plan.name, "Podcasts")
    XCTAssertEqual(decoded.meta.plan.version, "3")
    XCTAssertEqual(decoded.meta.recordings.count, 1)
    let recording = decoded.meta.recordings[0]
    XCTAssertEqual(recording.file, recordingPath)
    XCTAssertEqual(recording.formatVersion, 1)
    XCTAssertEqual(recording.app, "Podcasts")
    XCTAssertEqual(recording.appVersion, "3.2.0")
    XCTAssertEqual(recording.appBuild, "412")
    XCTAssertEqual(recording.device, "iPhone <15>")
    XCTAssertEqual(recording.started, "2023-11-14T21:56:40.000Z")
    XCTAssertEqual(decoded.records, 2)
    XCTAssertEqual(decoded.violations.map(\.rule), ["wrong-name"])
    XCTAssertEqual(decoded.violations.map(\.line), [3])
    XCTAssertTrue(
      text.hasPrefix("{\"meta\":{\"generated\":\"2023-11-14T22:13:20.123Z\",\"tool\":\"tagscope\","))
    // Streamed to a file, the same bytes.
    let url = directory.appendingPathComponent("report.json")
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    let outcome = ValidateRunner.run(
      planPath: planPath, recordings: [recordingPath], format: .json, failOn: .error, generated: generated)
    try outcome.writeOutput(to: handle)
    try handle.close()
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), text)
  }

  func testJUnitHasTheMetadataAsSuiteProperties() throws {
    let xml = try run(.junit)
    let document = try XMLDocument(data: Data(xml.utf8))
    let suite = try XCTUnwrap(document.rootElement()?.elements(forName: "testsuite").first)
    XCTAssertEqual(suite.attribute(forName: "timestamp")?.stringValue, "2023-11-14T22:13:20")
    var properties: [String: String] = [:]
    for property in suite.elements(forName: "properties").first?.elements(forName: "property") ?? [] {
      properties[property.attribute(forName: "name")?.stringValue ?? ""] =
        property.attribute(forName: "value")?
        .stringValue
    }
    XCTAssertEqual(properties["generated"], "2023-11-14T22:13:20.123Z")
    XCTAssertEqual(properties["tagscope.version"], TagscopeVersion.current)
    XCTAssertEqual(properties["plan.file"], planPath)
    XCTAssertEqual(properties["plan.name"], "Podcasts")
    XCTAssertEqual(properties["plan.version"], "3")
    XCTAssertEqual(properties["recording.1.file"], recordingPath)
    XCTAssertEqual(properties["recording.1.app"], "Podcasts")
    XCTAssertEqual(properties["recording.1.appVersion"], "3.2.0")
    XCTAssertEqual(properties["recording.1.appBuild"], "412")
    XCTAssertEqual(properties["recording.1.device"], "iPhone <15>")
    XCTAssertEqual(properties["recording.1.started"], "2023-11-14T21:56:40.000Z")
    XCTAssertEqual(properties["records"], "2")
    XCTAssertNil(properties["recording.1.token"])
  }

  func testHTMLHasAHeaderTableAndEscapedCollapsiblePayloads() throws {
    let html = try run(.html)
    XCTAssertTrue(html.contains("<tr><th>generated</th><td>2023-11-14T22:13:20.123Z</td></tr>"), html)
    XCTAssertTrue(html.contains("<tr><th>tagscope</th><td>\(TagscopeVersion.current)</td></tr>"))
    XCTAssertTrue(html.contains("<tr><th>plan</th><td>\(planPath) (Podcasts v3)</td></tr>"))
    XCTAssertTrue(
      html.contains(
        "<tr><th>recording</th><td><code>\(recordingPath)</code> Podcasts 3.2.0 (412) · device iPhone &lt;15&gt;"
      ))
    // The violation's payload: what the record carried, collapsible, escaped.
    XCTAssertEqual(html.components(separatedBy: "<details class=\"payload\">").count, 2)
    XCTAssertTrue(html.contains("<summary>payload (what the record carried)</summary><pre>{\n"))
    XCTAssertTrue(html.contains("&quot;play_podcast_from_favorites&quot;"))
    XCTAssertTrue(
      html.contains("&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;\u{FFFD}"),
      html)
    XCTAssertFalse(html.lowercased().contains("<script"))
    XCTAssertFalse(html.contains("\u{202E}"))
    XCTAssertEqual(html.components(separatedBy: "</details>").count, 2, "one payload, closed once")
  }

  func testHTMLPayloadsAreCutAtTheirLimitAndSharedOnesShownOnce() throws {
    var long = goodPlay(3, screen: "podcasts")
    long.outputs[0] = sent(
      "firebase", "play_podcast_from_favorites",
      ["podcast_title": .string(String(repeating: "é<", count: 3000))])
    var same = goodPlay(4, screen: "podcasts")
    same.outputs[0] = sent("firebase", "play_podcast_from_favorites", ["podcast_title": .string(hostile)])
    let html = try run(.html, extraRecords: [long, same])
    XCTAssertTrue(html.contains("payload (what the record carried, first 4096 of "), html)
    XCTAssertTrue(html.contains("\n…</pre></details>"))
    XCTAssertFalse(html.contains("\u{FFFD}é"), "cut at a character boundary")
    // Record 4 repeats record 2: its payload is not shown again.
    XCTAssertTrue(html.contains("(payload as #2)"))
    // Record 3's long value also breaks a firebase rule: two groups, each with its payload.
    XCTAssertTrue(html.contains("<h3>provider-rule <span class=\"muted\">(1)</span></h3>"))
    XCTAssertEqual(html.components(separatedBy: "<details class=\"payload\">").count, 4)
  }

  func testAReportBuiltInMemoryHasNoMetadata() throws {
    let plan = try samplePlan()
    let (violations, validator) = validate([goodPlay(1)], plan: plan)
    let report = ValidationReport(
      plan: plan, violations: violations, coverage: validator.coverage, records: validator.records)
    XCTAssertTrue(JSONReport.render(report).hasPrefix("{\"violations\":"))
    XCTAssertTrue(TextReport.render(report).hasPrefix("plan Podcasts v3 · "))
    XCTAssertFalse(HTMLReport.render(report, failOn: .error).contains("class=\"meta\""))
  }
}
