import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// An item broken by some of its records (3 of 5) is failing, with those counts, in every report:
/// never a green "passed" beside its own violations.
final class SometimesBrokenTests: XCTestCase {
  static let itemID = "action playPodcast on favorites: firebase"

  /// Five plays on favorites; the firebase call of three carries the wrong name.
  static func run() throws -> ValidationReport {
    let plan = try samplePlan()
    let records = (1...5).map { seq -> Record in
      var play = goodPlay(UInt64(seq))
      if seq.isMultiple(of: 2) == false {
        play.outputs[0] = sent("firebase", "play_podcast", ["podcast_title": "T", "podcast_duration": 1])
      }
      return play
    }
    let (violations, validator) = validate(records, plan: plan)
    return ValidationReport(plan: plan, violations: violations, coverage: validator.coverage, records: 5)
  }

  func testTheCoverageStateIsFailingWithHowManyRecordsBrokeIt() throws {
    let coverage = try Self.run().coverage
    let index = try XCTUnwrap(coverage.items.firstIndex { $0.id == Self.itemID })
    XCTAssertEqual(coverage.state(at: index), .failing(rules: [.wrongName], broken: 3, records: 5))
    XCTAssertEqual(coverage.state(at: index).label, "✗ failing · 3 of 5 broke it (wrong-name)")
    let amplitude = try XCTUnwrap(
      coverage.items.firstIndex { $0.id == "action playPodcast on favorites: amplitude" })
    XCTAssertEqual(coverage.state(at: amplitude), .passed, "every record of it passed")
    XCTAssertEqual(coverage.stateCounts.failing, 1)
    XCTAssertTrue(coverage.summary.contains(", 1 failing"), coverage.summary)
  }

  func testTheTextReportListsItFailing() throws {
    let text = TextReport.render(try Self.run())
    XCTAssertTrue(
      text.contains("\n  ✗ failing · 3 of 5 broke it (wrong-name) · \(Self.itemID) · plan line 21\n"), text)
    XCTAssertFalse(text.contains("✓"))
  }

  func testTheJSONReportSaysFailingWithTheCounts() throws {
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(JSONReport.render(try Self.run()).utf8)) as? [String: Any])
    let coverage = try XCTUnwrap(json["coverage"] as? [String: Any])
    XCTAssertEqual(coverage["failing"] as? Int, 1)
    let items = try XCTUnwrap(coverage["items"] as? [[String: Any]])
    let item = try XCTUnwrap(items.first { $0["id"] as? String == Self.itemID })
    XCTAssertEqual(item["state"] as? String, "failing")
    XCTAssertEqual(item["records"] as? Int, 5)
    XCTAssertEqual(item["failures"] as? Int, 3)
    XCTAssertEqual(item["rules"] as? [String], ["wrong-name"])
    XCTAssertEqual(item["label"] as? String, "failing · 3 of 5 broke it (wrong-name)")
  }

  func testTheJUnitCaseFails() throws {
    let xml = JUnitReport.render(try Self.run(), failOn: .error)
    let open = try XCTUnwrap(xml.range(of: "name=\"\(MarkupText.escape(Self.itemID))\""))
    let testCase = xml[open.upperBound...].prefix { $0 != "\n" }
    XCTAssertTrue(
      testCase.contains(
        "<failure type=\"wrong-name\" message=\"failing · 3 of 5 broke it (wrong-name), first"),
      String(testCase))
  }

  func testTheHTMLMatrixCellIsFailing() throws {
    let html = HTMLReport.render(try Self.run(), failOn: .error)
    XCTAssertTrue(
      html.contains(
        "<td class=\"failing\" title=\"\(MarkupText.escape(Self.itemID)) · plan line 21\">"
          + "✗ failing · 3 of 5 broke it (wrong-name)</td>"), html)
  }
}
