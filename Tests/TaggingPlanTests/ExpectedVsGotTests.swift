import AnalyticsHub
import Foundation
import TaggingPlanTesting
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// A plan expecting firebase `purchase` with `value` and `currency`.
let purchasePlanYAML = """
  plan: Shop
  version: 1
  actions:
    purchase:
      providers:
        firebase: {name: purchase, params: [value, currency]}

  """

/// A purchase whose firebase call carried `amount` and a misspelled `valeu` instead.
func misspelledPurchase(_ seq: UInt64 = 1) -> Record {
  record(
    seq, .userAction, "purchase", outputs: [sent("firebase", "purchase", ["amount": 19.99, "valeu": 3])])
}

/// The "expected vs got hides the clue": a call's extra and misspelled parameters beside
/// the missing ones, a "did you mean", one table per call.
final class ExpectedVsGotTests: XCTestCase {
  func testTheComparisonShowsWhatTheCallCarriedInstead() throws {
    let plan = try PlanLoader.load(yaml: purchasePlanYAML, file: "shop.yaml")
    let (violations, _) = validate([misspelledPurchase()], plan: plan)
    XCTAssertEqual(violations.map(\.rule), [.missingParam, .missingParam], "each violation counts")
    let groups = ExpectationComparison.grouped(violations)
    XCTAssertEqual(groups.map(\.members), [[0, 1]], "one comparison for the call")
    let comparison = try XCTUnwrap(groups.first?.comparison)
    XCTAssertEqual(comparison.title, "firebase purchase")
    XCTAssertEqual(
      comparison.rows,
      [
        .init(field: "call", expected: "purchase", actual: "logEvent purchase", differs: false),
        .init(
          field: "param value", expected: "present", actual: "absent (did you mean valeu?)", differs: true),
        .init(field: "param currency", expected: "present", actual: "absent", differs: true),
        .init(field: "param amount", expected: "not planned", actual: "19.99", differs: false),
        .init(field: "param valeu", expected: "not planned (value misspelled?)", actual: "3", differs: false),
      ])
  }

  func testNameSimilarityPairsMisspellingsOnly() {
    XCTAssertEqual(NameSimilarity.similarity("podcast_title", "podcastTitle"), 1)
    XCTAssertEqual(NameSimilarity.similarity("valeu", "value"), 0.8, accuracy: 0.001)
    XCTAssertLessThan(NameSimilarity.similarity("amount", "value"), NameSimilarity.threshold)
    XCTAssertLessThan(NameSimilarity.similarity("id", "ad"), NameSimilarity.threshold)
    XCTAssertEqual(
      NameSimilarity.pairs(missing: ["value", "currency"], extra: ["amount", "valeu", "curency"]),
      ["value": "valeu", "currency": "curency"])
    XCTAssertEqual(NameSimilarity.pairs(missing: ["value"], extra: ["amount"]), [:])
  }

  func testAMissingPropertyShowsTheUnplannedOnesOnceWithTheirViolations() throws {
    let plan = try PlanLoader.load(yaml: samplePlanYAML, file: "sample.yaml")
    var play = goodPlay(1)
    play.properties = ["podcastTitle": "Swift by Sundell", "podcast_duration": 1830]
    let (violations, _) = validate([play], plan: plan)
    let properties = violations.filter { $0.rule == .missingProperty || $0.rule == .unexpectedProperty }
    XCTAssertEqual(properties.count, 2, violations.map(\.message).description)
    let groups = ExpectationComparison.grouped(properties)
    XCTAssertEqual(groups.count, 1)
    let rows = try XCTUnwrap(groups.first?.comparison.rows)
    XCTAssertEqual(rows.first?.actual, "absent (did you mean podcastTitle?)")
    XCTAssertEqual(rows.filter { $0.field == "property podcastTitle" }.count, 1, "\(rows)")
  }

  func testTheHTMLReportShowsTheCallsTableOnce() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expect-got-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = directory.appendingPathComponent("shop.yaml")
    try Data(purchasePlanYAML.utf8).write(to: plan)
    let recording = try writeRecording([misspelledPurchase()], named: "shop.jsonl", in: directory)
    let html = ValidateRunner.run(
      planPath: plan.path, recordings: [recording], format: .html, failOn: .error
    ).output
    func count(_ text: String) -> Int { html.components(separatedBy: text).count - 1 }
    XCTAssertEqual(count("<table class=\"comparison\">"), 1, html)
    XCTAssertEqual(count("absent (did you mean valeu?)"), 1, html)
    XCTAssertEqual(count("<td>param currency</td>"), 1, html)
    XCTAssertEqual(
      count("<td>param amount</td><td class=\"mono\">not planned</td><td class=\"mono\">19.99</td>"), 1, html)
    XCTAssertEqual(count("not planned (value misspelled?)"), 1, html)
  }
}

extension PlanAssertionTests {
  func testTheXCTestMessageShowsWhatTheCallCarriedInstead() throws {
    let run = PlanTestRun(plan: try PlanLoader.load(yaml: purchasePlanYAML, file: "shop.yaml"))
    _ = run.check(misspelledPurchase())
    let failures = expectFailures { XCTAssertConformsToPlan(run) }
    let description =
      try failures.map { try XCTUnwrap($0.first).description }
      ?? {
        var text = ""
        XCTAssertThrowsError(try run.requireNoViolations()) { text = "\($0)" }
        return text
      }()
    for expected in [
      "2 violations of plan Shop v1 (shop.yaml):",
      "firebase purchase has no parameter value", "firebase purchase has no parameter currency",
      "    expected vs got · firebase purchase",
      "    ✗ param value     present                          absent (did you mean valeu?)",
      "    ✗ param currency  present                          absent",
      "      param amount    not planned                      19.99",
      "      param valeu     not planned (value misspelled?)  3",
    ] {
      XCTAssertTrue(description.contains(expected), "lacks \(expected):\n\(description)")
    }
    XCTAssertEqual(
      description.components(separatedBy: "expected vs got").count, 2, "one table:\n\(description)")
  }
}
