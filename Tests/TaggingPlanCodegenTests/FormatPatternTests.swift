import TaggingPlan
import XCTest

@testable import TaggingPlanCodegen

/// The regular expressions generated code checks string formats with (in debug builds) agree with
/// the plan checker `validate` uses, on values each format accepts and values it refuses.
final class FormatPatternTests: XCTestCase {
  /// Per format, values the checker accepts and values it refuses (both kinds for each).
  static let samples: [ValueFormat: [String]] = [
    .date: ["2026-11-24", "2000-01-31", "2026-13-01", "26-11-24", "2026-11-24T10:00:00Z", ""],
    .time: ["19:05:00Z", "19:05:00.5+01:00", "00:00:00z", "19:05:00", "24:00:00Z", "19:5:00Z"],
    .duration: ["P1D", "PT0S", "P2W", "P1DT12H", "P1Y2M3DT4H5M6S", "P", "PT", "1D", "P1DT", "P1W2D"],
    .email: [
      "someone@example.com", "a.b+c@sub.example.org", "no-at-sign", "a@", "@b.com", "a..b@example.com",
    ],
    .idnEmail: ["someone@example.com", "실례@실례.테스트", "a@", "no-at-sign"],
    .hostname: [
      "example.com", "a-b.c", "localhost", "-a.com", "a_b.com", "a..b", "",
      String(repeating: "a", count: 64) + ".com",
    ],
    .idnHostname: ["example.com", "münchen.de", "-a.com", "a..b"],
    .ipv4: ["192.168.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "01.1.1.1", "1.1.1", "1.1.1.1.1"],
    .ipv6: [
      "::1", "2001:db8::1", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8", "::", "1:2:3:4:5:6:7:8:9", "12345::1",
      ":::", "1::2::3", "2001:db8::g",
    ],
    .uri: [
      "https://example.com/a?b=c#d", "mailto:a@b.c", "urn:isbn:0451450523", "/relative",
      "https://example.com/a b", "http://example.com/%zz",
    ],
    .uriReference: ["/path", "#fragment", "https://example.com/", "a?b", "a b", "/%zz"],
    .iri: ["https://example.com/", "https://例子.测试/路径", "/relative", "https://example.com/a b"],
    .iriReference: ["/路径", "#f", "https://example.com/", "a b"],
    .uriTemplate: ["https://example.com/{id}", "/search{?q,lang}", "/{+path}/x", "/{id", "/}"],
    .jsonPointer: ["", "/a", "/a~1b", "/~0", "a", "/~2", "/~"],
    .relativeJSONPointer: ["0", "1/a", "2#", "0/a~1b", "-1", "01", "/a"],
  ]

  func testEachPatternAgreesWithThePlanChecker() throws {
    for (format, pattern) in FormatPatterns.patterns.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let regex = try Regex(pattern)
      let samples = try XCTUnwrap(Self.samples[format], "no samples for \(format.rawValue)")
      var accepted = 0
      for text in samples {
        let checker = format.accepts(text)
        if checker { accepted += 1 }
        XCTAssertEqual(text.wholeMatch(of: regex) != nil, checker, "\(format.rawValue): \(text)")
      }
      XCTAssertGreaterThan(accepted, 0, "\(format.rawValue): no accepted sample")
      XCTAssertLessThan(accepted, samples.count, "\(format.rawValue): no refused sample")
    }
  }

  /// Every format the checker knows is checked, but those typed `Date` and `UUID`.
  func testEveryFormatButTheTypedOnesIsChecked() {
    XCTAssertEqual(
      Set(PlanCodegen.checkedFormats),
      Set(ValueFormat.allCases.map(\.rawValue)).subtracting(["date-time", "uuid"]))
  }

  /// The helper is written once, with the formats the plan uses, and each formatted field asserts
  /// through it; a plan without formats gets none.
  func testHelperIsEmittedOnceWithTheFormatsUsed() throws {
    let yaml = """
      plan: Mail
      actions:
        subscribe:
          properties:
            email: {type: string, format: email, required: true}
            backup: {type: string, format: email}
            site: {type: string, format: uri}
            when: {type: string, format: date-time}
            tier: {type: integer, enum: [1, 2, 3], required: true}
            ratio: {type: number, enum: [0.5, 1.5]}
      """
    let plan = try PlanLoader.load(yaml: yaml, file: "mail.yaml")
    let taxonomy = try XCTUnwrap(
      PlanCodegen(plan: plan, options: .init(moduleName: "Mail", toolVersion: "1")).files().first?.text)
    XCTAssertEqual(taxonomy.components(separatedBy: "enum MailFormats").count, 2)
    XCTAssertTrue(taxonomy.contains(#"assert(MailFormats.accepts(email, "email"), "subscribe: email")"#))
    XCTAssertTrue(taxonomy.contains(#"assert(MailFormats.accepts(backup, "email"), "subscribe: backup")"#))
    XCTAssertTrue(taxonomy.contains(#"assert(MailFormats.accepts(site, "uri"), "subscribe: site")"#))
    XCTAssertTrue(taxonomy.contains("\"email\": "))
    XCTAssertFalse(taxonomy.contains("\"ipv4\": "))
    XCTAssertTrue(taxonomy.contains("when: Date? = nil"))
    XCTAssertTrue(taxonomy.contains("tier: Int,"))
    XCTAssertTrue(taxonomy.contains(#"assert([1, 2, 3].contains(tier), "subscribe: tier")"#))
    XCTAssertTrue(taxonomy.contains(#"assert([0.5, 1.5].contains(ratio), "subscribe: ratio")"#))
    XCTAssertFalse(taxonomy.contains("import TaggingPlan"))

    let plain = try PlanLoader.load(yaml: "plan: Plain\nactions:\n  tap: {}\n", file: "plain.yaml")
    let text = PlanCodegen(plan: plain, options: .init(moduleName: "Plain", toolVersion: "1")).files()[0].text
    XCTAssertFalse(text.contains("PlainFormats"))
  }
}
