import AnalyticsHub
import Foundation
import PodcastDemo
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// Issue 44's "expected vs got hides what a renamed call carried" and issue 49's two call rows for
/// one call: a call sent under another name is compared parameter by parameter, and a call has
/// one `call` row, whichever violations share its table.
final class RenamedCallComparisonTests: XCTestCase {
  /// A plan expecting `logEvent purchase` with `value` and `currency`.
  private let plan = """
    plan: Shop
    version: 1
    actions:
      purchase:
        providers:
          firebase: {name: purchase, method: logEvent, params: [value, currency]}

    """

  private func comparison(_ output: ProviderOutput) throws -> ExpectationComparison {
    let plan = try PlanLoader.load(yaml: plan, file: "shop.yaml")
    let (violations, _) = validate([record(1, .userAction, "purchase", outputs: [output])], plan: plan)
    XCTAssertEqual(violations.map(\.rule), [.wrongName])
    return try XCTUnwrap(ExpectationComparison.grouped(violations).first?.comparison)
  }

  func testARenamedCallsParametersAreAlignedWithThePlannedOnes() throws {
    let output = ProviderOutput(
      provider: "firebase", status: .sent,
      calls: [
        CallDescription(method: "logEvent", name: "app_open", parameters: ["screen": "cart"]),
        CallDescription(method: "setUserProperty", name: "purchase", parameters: ["value": 9]),
        CallDescription(
          method: "logEvent", name: "purchase_completed", parameters: ["value": 19.99, "amount": 2]),
      ])
    XCTAssertEqual(
      try comparison(output).rows,
      [
        .init(
          field: "call", expected: "logEvent purchase", actual: "logEvent purchase_completed", differs: true),
        .init(field: "param value", expected: "present", actual: "19.99", differs: false),
        .init(field: "param currency", expected: "present", actual: "absent", differs: true),
        .init(field: "param amount", expected: "not planned", actual: "2", differs: false),
      ])
  }

  func testTheOnlyCallOfThePlannedMethodIsTheRenamedOne() throws {
    let output = sent("firebase", "checkout", ["value": 3, "currency": "EUR"])
    XCTAssertEqual(
      try comparison(output).rows,
      [
        .init(field: "call", expected: "logEvent purchase", actual: "logEvent checkout", differs: true),
        .init(field: "param value", expected: "present", actual: "3", differs: false),
        .init(field: "param currency", expected: "present", actual: "\"EUR\"", differs: false),
      ])
  }

  /// Two calls as unlike the planned name, or as alike: no call is guessed, every call is named.
  func testNoCallIsGuessedAmongUnlikeOrEquallyLikeCalls() throws {
    for names in [["app_open", "login"], ["purchase_a", "purchase_b"]] {
      let output = ProviderOutput(
        provider: "firebase", status: .sent,
        calls: names.map { CallDescription(method: "logEvent", name: $0, parameters: ["value": 1]) })
      XCTAssertEqual(
        try comparison(output).rows,
        [
          .init(
            field: "call", expected: "logEvent purchase",
            actual: names.map { "logEvent \($0)" }.joined(separator: ", "), differs: true),
          .init(field: "param value", expected: "present", actual: "—", differs: false),
          .init(field: "param currency", expected: "present", actual: "—", differs: false),
        ])
    }
  }

  /// Two planned calls, one sent: the expectation it does not identify takes it as renamed, and
  /// the table keeps both call rows (each expectation's view of the call) rather than one
  /// expectation's name over the other's.
  func testTwoExpectationsOfOneCallKeepTheirOwnCallRows() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: Shop
        version: 1
        actions:
          purchase:
            providers:
              firebase:
                - {name: add_payment_info, params: [payment_type]}
                - {name: purchase, params: [value]}

        """, file: "shop.yaml")
    let sent = sent("firebase", "purchase", ["amount": 1])
    let (violations, _) = validate([record(1, .userAction, "purchase", outputs: [sent])], plan: plan)
    XCTAssertEqual(violations.map(\.rule), [.wrongName, .missingParam])
    let groups = ExpectationComparison.grouped(violations)
    XCTAssertEqual(groups.map(\.members), [[0, 1]])
    XCTAssertEqual(
      groups[0].comparison.rows.filter { $0.field == "call" },
      [
        .init(field: "call", expected: "add_payment_info", actual: "logEvent purchase", differs: true),
        .init(field: "call", expected: "purchase", actual: "logEvent purchase", differs: false),
      ])
  }

  /// Past ``NameSimilarity/renameCandidateLimit`` calls, names are not compared (a hostile
  /// record's thousands of calls): no call is guessed.
  func testManyCallsAreNotComparedByName() throws {
    let names = (0..<NameSimilarity.renameCandidateLimit).map { "event_\($0)" } + ["purchase_completed"]
    let output = ProviderOutput(
      provider: "firebase", status: .sent,
      calls: names.map { CallDescription(method: "logEvent", name: $0, parameters: ["value": 1]) })
    let rows = try comparison(output).rows
    XCTAssertEqual(rows.map(\.actual).dropFirst(), ["—", "—"])
    XCTAssertTrue(rows[0].actual.hasPrefix("logEvent event_0, logEvent event_1, "), rows[0].actual)
  }

  /// The demo's renamed firebase call (also too long a name) and braze's call carrying
  /// `$required_bytes` (a provider rule and a missing parameter): one table per call, one call
  /// row in it, the planned parameters beside the values sent.
  func testTheDemosBrokenCallsHaveOneCallRowAndTheirValues() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    let (violations, _) = validate(try DemoPlanTests.demoSession(), plan: plan)
    let groups = ExpectationComparison.grouped(violations)
    for group in groups {
      XCTAssertLessThanOrEqual(
        group.comparison.rows.filter { $0.field == "call" }.count, 1, "\(group.comparison.rows)")
    }
    let renamed = try XCTUnwrap(
      groups.first { group in group.members.contains { violations[$0].rule == .wrongName } })
    XCTAssertEqual(
      renamed.members.map { violations[$0].rule }, [.providerRule, .wrongName],
      "the renamed call's rule and name share its table")
    let rows = renamed.comparison.rows.filter { $0.field.hasPrefix("call") || $0.field.hasPrefix("param") }
    XCTAssertEqual(
      rows,
      [
        .init(
          field: "call", expected: "remove_podcast_from_favorites",
          actual: "logEvent remove_podcast_from_favorites_on_podcast_player_screen", differs: true),
        .init(
          field: "param podcast_title", expected: "present", actual: "\"Swift by Sundell\"", differs: false),
        .init(field: "param podcast_duration", expected: "present", actual: "1830", differs: false),
      ])
    let braze = try XCTUnwrap(
      groups.first { group in
        group.members.contains { violations[$0].rule == .missingParam && violations[$0].provider == "braze" }
      })
    XCTAssertEqual(
      braze.comparison.rows.filter { $0.field == "call" },
      [
        .init(
          field: "call", expected: "download_failed", actual: "logCustomEvent download_failed", differs: false
        )
      ])
  }

  /// `validate --format html` on the demo: each expected-vs-got table has one call row (the braze
  /// call's is `download_failed | logCustomEvent download_failed`), the renamed call's table
  /// shows the values sent, and no where cell can break inside `file:line`.
  func testTheHTMLReportOfTheDemoHasOneCallRowPerTableAndUnbrokenPlaces() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("renamed-\(UUID())")
    let folder = directory.appendingPathComponent("run 1")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = directory.appendingPathComponent("demo-plan.yaml")
    try Data(DemoPlan.yaml.utf8).write(to: plan)
    let recording = try writeRecording(try DemoPlanTests.demoSession(), named: "r.jsonl", in: folder)
    let html = ValidateRunner.run(
      planPath: plan.path, recordings: [recording], format: .html, failOn: .error
    ).output
    func count(_ text: String, in page: String = html) -> Int { page.components(separatedBy: text).count - 1 }
    let tables = html.components(separatedBy: "<table class=\"comparison\">").dropFirst().map {
      $0.components(separatedBy: "</table>")[0]
    }
    XCTAssertEqual(tables.count, 4, html)
    for table in tables { XCTAssertEqual(count("<td>call</td>", in: table), 1, table) }
    XCTAssertEqual(
      count(
        "<tr class=\"same\"><td>call</td><td class=\"mono\">download_failed</td>"
          + "<td class=\"mono\">logCustomEvent download_failed</td></tr>"), 1, html)
    XCTAssertEqual(
      count(
        "<td>call</td><td class=\"mono\">remove_podcast_from_favorites</td>"
          + "<td class=\"mono\">✗ logEvent remove_podcast_from_favorites_on_podcast_player_screen</td>"), 1,
      html)
    XCTAssertEqual(
      count(
        "<td>param podcast_title</td><td class=\"mono\">present</td><td class=\"mono\">&quot;Swift by Sundell&quot;</td>"
      ),
      1, html)
    // Every where cell: the folders breakable after each `/`, `r.jsonl:LINE` in one unbreakable span.
    let folders = folder.path.split(separator: "/").map { MarkupText.escape(String($0)) + "/<wbr>" }.joined()
    let cells = html.components(separatedBy: "<td class=\"mono where\">").dropFirst()
    XCTAssertEqual(cells.count, 6, html)
    for cell in cells {
      let content = String(cell.split(separator: "</td>", maxSplits: 1)[0])
      XCTAssertTrue(content.hasPrefix("/<wbr>" + folders + "<span class=\"nowrap\">r.jsonl:"), content)
      XCTAssertTrue(content.hasSuffix("</span>"), content)
    }
    XCTAssertTrue(html.contains("td.where{word-break:normal}"))
    XCTAssertEqual(count("<td class=\"mono nowrap\">2026-"), 6, "nor a time")
    XCTAssertEqual(count("<td class=\"mono\">2026-"), 0, html)
  }
}
