import AnalyticsHub
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// Every report quotes a value the privacy detectors find masked, as the `personal-data` finding
/// shows it: messages (`invalid-value`, a wrong type), comparison rows and the JSON `actual`.
final class ReportMaskingTests: XCTestCase {
  private let yaml = """
    plan: Shop
    actions:
      signUp:
        properties:
          code: {type: string, enum: [a, b]}
          count: {type: integer}
        providers:
          firebase: {name: sign_up, params: {channel: web}}
    """
  private let raw = ["jo@example.com", "+33 6 12 34 56 78", "4111 1111 1111 1111"]

  private func report() throws -> ValidationReport {
    let plan = try PlanLoader.load(yaml: yaml, file: "shop.yaml")
    let properties: Properties = ["code": "jo@example.com", "count": "+33 6 12 34 56 78"]
    let made = record(
      7, .userAction, "signUp", properties,
      outputs: [sent("firebase", "sign_up", ["channel": "4111 1111 1111 1111"])])
    let (violations, validator) = validate([made], plan: plan)
    return ValidationReport(
      plan: plan, violations: violations, coverage: validator.coverage, records: validator.records,
      problems: [])
  }

  func testMessagesQuoteFoundValuesMasked() throws {
    let report = try report()
    let rules = Set(report.violations.map(\.rule))
    XCTAssertTrue(rules.contains(.invalidValue), "\(rules)")
    let invalid = try XCTUnwrap(report.violations.first { $0.rule == .invalidValue })
    XCTAssertTrue(invalid.message.contains("\"<email masked, 14 characters>\""), invalid.message)
    for violation in report.violations {
      for value in raw { XCTAssertFalse(violation.message.contains(value), violation.message) }
    }
  }

  func testEveryReportFormatMasksFoundValues() throws {
    let report = try report()
    let rendered = [
      ("json", JSONReport.render(report)), ("html", HTMLReport.render(report, failOn: .error)),
      ("junit", JUnitReport.render(report, failOn: .error)), ("text", TextReport.render(report)),
    ]
    for (format, text) in rendered {
      for value in raw { XCTAssertFalse(text.contains(value), "\(format) shows \(value)") }
    }
    XCTAssertTrue(JSONReport.render(report).contains("<card masked, 19 characters>"))
  }

  func testMaskKeepsTheTextAroundAndLeavesCleanValuesAlone() {
    XCTAssertEqual(
      PIIMask.masked("write to jo@example.com today"), "write to <email masked, 14 characters> today")
    XCTAssertNil(PIIMask.masked("Swift by Sundell 3.2.0"))
    XCTAssertEqual(PIIMask.value(.int(1830)), .int(1830))
    XCTAssertEqual(
      PIIMask.value(.string("38400000-8CF0-11BD-B23E-10B96E40000D"), key: "idfa"),
      .string("<adid masked, 36 characters>"))
  }
}
