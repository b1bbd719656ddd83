import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// A `personal-data` finding keeps its evidence (kind, provider, call, path, length; never the
/// value) beside what the plan allows there, and every report shows it: the comparison (`v`, the
/// HTML table), the JSON `expected`/`actual`, JUnit. Messages mask a value as the detectors read
/// it under its key. The other record of a journey finding is placed by file and line.
final class PersonalDataEvidenceTests: XCTestCase {
  private let yaml = """
    plan: Shop
    actions:
      signUp:
        properties:
          email: {type: string, pii: [email]}
          referrer: {type: string}
        providers:
          firebase: {name: sign_up, params: {channel: web}}
    """
  private let phone = "+33 6 12 34 56 78"

  /// A phone number under `email` (which allows emails) and an email under `referrer` (which
  /// allows nothing).
  private func report() throws -> ValidationReport {
    let plan = try PlanLoader.load(yaml: yaml, file: "shop.yaml")
    let made = record(
      7, .userAction, "signUp",
      outputs: [
        sent(
          "firebase", "sign_up", ["email": .string(phone), "referrer": "jo@example.com", "channel": "web"])
      ])
    let (violations, validator) = validate([made], plan: plan)
    return ValidationReport(
      plan: plan, violations: violations, coverage: validator.coverage, records: validator.records,
      problems: [])
  }

  private func personal(_ report: ValidationReport) -> [PlanViolation] {
    report.violations.filter { $0.rule == .personalData }
  }

  func testTheComparisonNamesTheKindPlaceAndLengthBesideWhatThePlanAllows() throws {
    let found = personal(try report())
    XCTAssertEqual(found.count, 2)
    let phoneFinding = try XCTUnwrap(found.first { $0.message.contains("parameter email") })
    let comparison = phoneFinding.comparison
    XCTAssertEqual(comparison.expectedHeading, "allowed (plan pii)")
    XCTAssertEqual(comparison.title, "firebase logEvent sign_up param email")
    XCTAssertEqual(
      comparison.rows,
      [
        ExpectationComparison.Row(field: "call", expected: "—", actual: "logEvent sign_up", differs: false),
        ExpectationComparison.Row(
          field: "param email", expected: "pii: [email]",
          actual: "personal data: phone at email, value masked (17 characters)", differs: true),
      ])
    let emailFinding = try XCTUnwrap(found.first { $0.message.contains("parameter referrer") })
    XCTAssertEqual(emailFinding.comparison.rows.last?.expected, "no personal data (pii: none)")
    XCTAssertEqual(
      emailFinding.comparison.rows.last?.actual,
      "personal data: email at referrer, value masked (14 characters)")
    // The other findings keep their heading.
    let plan = try PlanLoader.load(yaml: yaml, file: "shop.yaml")
    let (unplanned, _) = validate([record(8, .userAction, "browse")], plan: plan)
    XCTAssertEqual(unplanned.first?.comparison.expectedHeading, "expected (plan)")
  }

  func testTheJSONReportHasThePlansAllowanceAndTheMaskedValue() throws {
    let report = try report()
    let json = JSONReport.render(report)
    XCTAssertFalse(json.contains("12 34 56"), json)
    XCTAssertFalse(json.contains("jo@example.com"), json)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let violations = try XCTUnwrap(object["violations"] as? [[String: Any]])
    let phoneFinding = try XCTUnwrap(
      violations.first {
        ($0["rule"] as? String) == "personal-data" && "\($0["message"] ?? "")".contains("email")
      })
    // The plan line where `pii` would allow it: the property's.
    XCTAssertEqual(phoneFinding["planLine"] as? Int, 5)
    let expected = try XCTUnwrap(phoneFinding["expected"] as? [String: Any])
    XCTAssertEqual(expected["provider"] as? String, "firebase")
    XCTAssertEqual(expected["call"] as? String, "logEvent sign_up")
    XCTAssertEqual(expected["param"] as? String, "email")
    XCTAssertEqual(expected["pii"] as? [String], ["email"])
    let actual = try XCTUnwrap(phoneFinding["actual"] as? [String: Any])
    XCTAssertEqual(actual["param"] as? String, "email")
    XCTAssertEqual(actual["place"] as? String, "outputs[0].calls[0].parameters.email")
    XCTAssertEqual(actual["kind"] as? String, "phone")
    XCTAssertEqual(actual["length"] as? Int, 17)
    XCTAssertEqual(actual["value"] as? String, "<phone masked, 17 characters>")
    let emailFinding = try XCTUnwrap(
      violations.first {
        ($0["rule"] as? String) == "personal-data" && "\($0["message"] ?? "")".contains("referrer")
      })
    XCTAssertEqual((emailFinding["expected"] as? [String: Any])?["pii"] as? [String], [])
    XCTAssertEqual(emailFinding["planLine"] as? Int, 6)
  }

  func testHTMLAndJUnitShowTheMaskedFinding() throws {
    let report = try report()
    let html = HTMLReport.render(report, failOn: .error)
    XCTAssertTrue(html.contains("<th>allowed (plan pii)</th>"), html)
    XCTAssertTrue(html.contains("personal data: phone at email, value masked (17 characters)"), html)
    XCTAssertTrue(html.contains("pii: [email]"), html)
    let junit = JUnitReport.render(report, failOn: .error)
    XCTAssertTrue(junit.contains("parameter email carries a phone number"), junit)
    XCTAssertTrue(junit.contains("value masked, 17 characters"), junit)
    for text in [html, junit] {
      XCTAssertFalse(text.contains("12 34 56"))
      XCTAssertFalse(text.contains("jo@example.com"))
    }
  }

  /// A bare UUID is an advertising id only under an advertising-id key: a message quoting it
  /// masks it under the property's or parameter's name, as the privacy check reads it.
  func testMessagesMaskAnAdvertisingIDUnderItsKey() throws {
    let uuid = "38400000-8CF0-11BD-B23E-10B96E40000D"
    let plan = try PlanLoader.load(
      yaml: """
        plan: Ads
        actions:
          launch:
            properties:
              idfa: {type: string, enum: [unknown]}
            providers:
              firebase:
                name: app_open
                params:
                  resettable_device_id: {type: string, pattern: "^[a-z]+$"}
                  rdid: unknown
        """, file: "ads.yaml")
    let made = record(
      3, .userAction, "launch", ["idfa": .string(uuid)],
      outputs: [sent("firebase", "app_open", ["resettable_device_id": .string(uuid), "rdid": .string(uuid)])])
    let (violations, _) = validate([made], plan: plan)
    let invalid = violations.filter { $0.rule == .invalidValue }
    XCTAssertEqual(invalid.count, 3, violations.map(\.message).joined(separator: "\n"))
    for violation in invalid {
      XCTAssertFalse(violation.message.contains(uuid), violation.message)
      XCTAssertTrue(violation.message.contains("<adid masked, 36 characters>"), violation.message)
      for row in violation.comparison.rows {
        XCTAssertFalse(row.actual.contains(uuid), "\(row)")
      }
    }
    // Under a key that says nothing, a UUID is no personal data and is shown.
    XCTAssertEqual(PropertyRule.quoted(.string(uuid), key: "podcast_id"), "\"\(uuid)\"")
  }

  /// The JSON of a journey finding's other record has its file and line, as the finding's own
  /// record has them.
  func testTheOtherRecordOfAJourneyFindingHasItsFileAndLine() throws {
    let directory = try TemporaryDirectory()
    var records = (1...2).map { seq -> Record in
      var tap = record(UInt64(seq), .userAction, "tap", ["id": "p1"])
      tap.time = Date(timeIntervalSince1970: 1_800_000_000 + Double(seq) / 10)
      return tap
    }
    records.append(record(3, .userAction, "pay"))
    let path = try writeRecording(records, named: "taps.jsonl", in: directory.url)
    let plan = try PlanLoader.load(
      yaml: """
        plan: J
        actions:
          tap: {duplicateWithin: 500ms}
          pay: {once: session}
        """, file: "j.yaml")
    let report = try ValidateRunner.validate(plan: plan, recordings: [path])
    XCTAssertEqual(report.violations.map(\.rule), [.duplicate])
    let json = JSONReport.render(report)
    XCTAssertTrue(
      json.contains(#""record":{"seq":2,"name":"tap","file":"\#(path)","line":3,"#), json)
    XCTAssertTrue(
      json.contains(#""duplicates":{"seq":1,"name":"tap","file":"\#(path)","line":2,"#), json)
    // Checked record by record (no recording), the places are unknown.
    let (found, _) = validate(records, plan: plan)
    guard case .journey(let evidence)? = found.first?.evidence else { return XCTFail("no journey evidence") }
    XCTAssertNil(evidence.other?.place)
  }
}
