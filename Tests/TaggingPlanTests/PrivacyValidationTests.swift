import AnalyticsHub
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// Privacy findings through the plan check: `personal-data` violations with the value masked and
/// its place named, unless the plan marks the property `pii`.
final class PrivacyValidationTests: XCTestCase {
  private let yaml = """
    plan: Shop
    actions:
      signUp:
        properties:
          email: {type: string, pii: [email]}
          referrer: {type: string}
          contact: {type: object, pii: allowed}
        providers:
          firebase: {name: sign_up, params: {support: {type: string, pii: phone}, channel: web}}
      browse: {}
    """

  private func violations(_ parameters: Properties, name: String = "signUp", kind: RecordKind = .userAction)
    throws -> [PlanViolation]
  {
    let plan = try PlanLoader.load(yaml: yaml, file: "shop.yaml")
    let made = record(
      7, kind, name, outputs: [sent("firebase", name == "signUp" ? "sign_up" : name, parameters)])
    return validate([made], plan: plan).0.filter { $0.rule == .personalData }
  }

  func testPersonalDataIsReportedMaskedWithItsPlace() throws {
    let found = try violations(
      ["referrer": "friend jo@example.com", "phone": "+33 6 12 34 56 78", "channel": "web"], name: "browse")
    XCTAssertEqual(found.map(\.rule), [.personalData, .personalData])
    XCTAssertEqual(found.map(\.provider), ["firebase", "firebase"])
    XCTAssertEqual(found.map(\.severity), [.error, .error])
    XCTAssertEqual(
      found.first?.message,
      "browse: firebase logEvent browse parameter referrer carries an email address "
        + "(outputs[0].calls[0].parameters.referrer, value masked, 21 characters); "
        + "mark the property pii: [email] where it is intended")
    for violation in found {
      XCTAssertFalse(violation.message.contains("jo@example.com"))
      XCTAssertFalse(violation.message.contains("12 34 56"))
    }
  }

  /// A `personal-data` finding fails the item the value reached (the provider's, on a planned
  /// tag), like any finding of its record, so coverage and JUnit file it there.
  func testPersonalDataFailsTheItemItReached() throws {
    let plan = try PlanLoader.load(yaml: yaml, file: "shop.yaml")
    let made = record(
      7, .userAction, "signUp",
      outputs: [
        sent("firebase", "sign_up", ["referrer": "jo@example.com", "channel": "web", "support": "desk"])
      ])
    let (found, validator) = validate([made], plan: plan)
    let personal = found.filter { $0.rule == .personalData }
    XCTAssertEqual(personal.count, 1)
    let item = try XCTUnwrap(personal.first?.coverageItem)
    XCTAssertEqual(validator.coverage.items[item].id, "action signUp: firebase")
    XCTAssertEqual(validator.coverage.states[item], .failing(rules: [.personalData], broken: 1, records: 1))
  }

  func testPlanAllowsTheKindsItNames() throws {
    // email: pii [email]; contact: pii allowed (every kind, nested too); support: a call param with pii phone;
    // channel: planned exact value.
    XCTAssertEqual(
      try violations([
        "email": "jo@example.com", "contact": .object(["phone": "06 12 34 56 78", "ip": "203.0.113.7"]),
        "support": "+1 (212) 555-0143",
      ]), [])
    // The kinds not named are still reported.
    let found = try violations(["email": "+33 6 12 34 56 78", "support": "ops@example.com"])
    XCTAssertEqual(found.count, 2)
    XCTAssertTrue(found[0].message.contains("parameter email carries a phone number"), found[0].message)
    XCTAssertTrue(found[1].message.contains("parameter support carries an email address"), found[1].message)
  }

  func testLifecycleRecordsAreCheckedToo() throws {
    let found = try violations(["user_id": "jo@example.com"], name: "identify", kind: .identify)
    XCTAssertEqual(found.count, 1)
  }

  func testBadPIIWordIsReportedWithItsLine() {
    XCTAssertThrowsError(
      try PlanLoader.load(
        yaml: "plan: X\nactions:\n  a:\n    properties:\n      p: {pii: [email, dna]}\n", file: "x.yaml")
    ) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("x.yaml:5"), text)
      XCTAssertTrue(text.contains("pii of property p of action a must be allowed, none or some of"), text)
    }
  }

  /// The findings of `parameters` sent on `browse` (planned, no `pii`) under a plan with `privacy`.
  private func findings(privacy: String, _ parameters: Properties) throws -> [PlanViolation] {
    let plan = try PlanLoader.load(
      yaml: "plan: Shop\n\(privacy)\nactions:\n  browse: {}\n", file: "shop.yaml")
    let made = record(7, .userAction, "browse", outputs: [sent("firebase", "browse", parameters)])
    return validate([made], plan: plan).0.filter { $0.rule == .personalData }
  }

  private let personal: Properties = [
    "referrer": "friend jo@example.com", "phone": "+33 6 12 34 56 78", "origin": "203.0.113.7",
  ]

  func testPrivacyOffHasNoPersonalDataFindings() throws {
    XCTAssertEqual(try findings(privacy: "", personal).count, 3)
    XCTAssertEqual(try findings(privacy: "privacy: off", personal), [])
    XCTAssertEqual(try findings(privacy: "privacy: false", personal), [])
    XCTAssertEqual(try findings(privacy: "privacy: {scan: off, allow: email}", personal), [])
    XCTAssertEqual(try findings(privacy: "privacy: on", personal).count, 3)
  }

  func testPlanWideAllowanceReportsOnlyTheOtherKinds() throws {
    let onlyEmail = try findings(privacy: "privacy: {allow: [email]}", personal)
    XCTAssertEqual(onlyEmail.count, 2)
    XCTAssertFalse(onlyEmail.contains { $0.message.contains("email address") }, "\(onlyEmail)")
    let emailAndIP = try findings(privacy: "privacy:\n  allow:\n    - email\n    - ip", personal)
    XCTAssertEqual(emailAndIP.count, 1)
    XCTAssertTrue(
      emailAndIP[0].message.contains("parameter phone carries a phone number"), emailAndIP[0].message)
  }

  func testBadPrivacyValuesAreReportedWithTheirPlace() {
    let cases: [(yaml: String, place: String, words: String)] = [
      (
        "privacy: maybe", "p.yaml:2:10",
        "privacy must be on, off or a mapping with scan and allow, found the string \"maybe\""
      ),
      (
        "privacy: {allw: [email]}", "p.yaml:2:11",
        "unknown key 'allw' in privacy; expected one of: scan, allow"
      ),
      (
        "privacy:\n  allow:\n    - email\n    - dna", "p.yaml:5:7",
        "allow of privacy must be some of email, phone"
      ),
      ("privacy: {scan: 3}", "p.yaml:2:17", "scan of privacy must be on, off"),
      ("privacy: [email]", "p.yaml:2:10", "privacy must be on, off or a mapping"),
    ]
    for item in cases {
      XCTAssertThrowsError(try PlanLoader.load(yaml: "plan: X\n\(item.yaml)\n", file: "p.yaml"), item.yaml) {
        error in
        let text = "\(error)"
        XCTAssertTrue(text.contains(item.place), "\(item.yaml): \(text)")
        XCTAssertTrue(text.contains(item.words), "\(item.yaml): \(text)")
      }
    }
  }
}
