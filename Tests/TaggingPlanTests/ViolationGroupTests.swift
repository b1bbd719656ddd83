import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

final class ViolationGroupTests: XCTestCase {
  private func violation(
    _ seq: UInt64, _ rule: ViolationRule, _ tag: String, provider: String? = nil, line: Int? = nil,
    severity: Severity = .error
  ) -> PlanViolation {
    PlanViolation(
      seq: seq, severity: severity, rule: rule, tag: tag, provider: provider, message: "m", planLine: line)
  }

  func testGroupsByKeyInTheOrderFirstSeenAndByPlanLineWhenAsked() {
    let violations = [
      violation(1, .unplannedTag, "b"),
      violation(2, .wrongType, "a", provider: "firebase", line: 3),
      violation(3, .unplannedTag, "a"),
      violation(4, .unplannedTag, "b"),
      violation(5, .wrongType, "a", provider: "firebase", line: 4),
      violation(6, .wrongType, "a", provider: "firebase", line: 3, severity: .warning),
      violation(7, .wrongType, "a", provider: "firebase", line: 3),
    ]
    let all = Array(violations.indices)
    let byLine = ViolationGroup.group(all, of: violations, byPlanLine: true)
    XCTAssertEqual(byLine.map(\.tag), ["b", "a", "a", "a", "a"])
    XCTAssertEqual(byLine.map(\.rule), [.unplannedTag, .wrongType, .unplannedTag, .wrongType, .wrongType])
    XCTAssertEqual(byLine.map(\.planLine), [nil, 3, nil, 4, 3])
    XCTAssertEqual(byLine.map(\.severity), [.error, .error, .error, .error, .warning])
    XCTAssertEqual(byLine.map(\.indexes), [[0, 3], [1, 6], [2], [4], [5]])
    let plain = ViolationGroup.group(all, of: violations)
    XCTAssertEqual(plain.map(\.indexes), [[0, 3], [1, 4, 6], [2], [5]])
    XCTAssertEqual(plain.map(\.planLine), [nil, nil, nil, nil])
  }

  /// Thousands of distinct tag names (each its own group, which the HTML report's grouping once
  /// copied whole per violation): every one counted, the first groups shown, the rest summed up.
  func testTheHTMLReportCountsEveryGroupOfManyDistinctTags() throws {
    let count = 3_000
    let plan = try PlanLoader.load(
      yaml: "plan: P\nversion: 1\nevents:\n  known: {}\n", file: "p.yaml")
    let violations = (0..<count).map { violation(UInt64($0 + 1), .unplannedTag, "tag_\($0)") }
    let report = ValidationReport(
      plan: plan, violations: violations, coverage: Coverage(items: plan.coverageItems), records: count)
    let html = HTMLReport.render(report, failOn: .error)
    XCTAssertTrue(html.contains("unplanned-tag <span class=\"muted\">(\(count))</span>"), html)
    XCTAssertTrue(html.contains("… and \(count - HTMLReport.groupsPerRule) more groups"))
    XCTAssertTrue(html.contains("error · tag_49<"))
    XCTAssertFalse(html.contains("error · tag_50<"))
  }
}
