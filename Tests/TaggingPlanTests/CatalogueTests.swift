import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import TagscopeTimeline
import XCTest

/// The providers' call catalogues (`catalogues:`): loading, checking calls and their parameters
/// (inside objects and arrays, with paths), unplanned calls, coverage and reports.
final class CatalogueTests: XCTestCase {
  static let yaml = """
    plan: Shop
    catalogues:
      segment:
        unplanned: warning
        calls:
          Order Completed:
            method: track
            params:
              properties:
                type: object
                required: true
                additionalProperties: false
                properties:
                  order_id: {type: string, required: true, format: uuid}
                  currency: {const: EUR}
                  placed_at: {type: string, format: date-time}
                  products:
                    type: array
                    items:
                      type: object
                      properties:
                        price: {type: number, minimum: 0, required: true}
          Signed Up:
            severity: warning
            params: [userId]
        methods:
          identify:
            params:
              traits: {type: object, properties: {email: {type: string, format: email}}}
      firebase:
        unplanned: allowed
        calls:
          purchase: {params: {value: {type: number}}, additionalProperties: false}
    """

  private func plan() throws -> Plan { try PlanLoader.load(yaml: Self.yaml, file: "shop.yaml") }

  private func order(_ properties: PropertyValue, seq: UInt64 = 1, name: String = "Order Completed") -> Record
  {
    record(
      seq, .event, name,
      outputs: [
        sent(
          "segment", name, ["type": "track", "event": .string(name), "properties": properties],
          method: "track")
      ])
  }

  private let goodOrder: PropertyValue = [
    "order_id": "123e4567-e89b-12d3-a456-426614174000", "currency": "EUR",
    "placed_at": "2026-11-24T19:05:00Z",
    "products": [["price": 10], ["price": 2.5]],
  ]

  func testAConformingCallPassesAndCoversItsEntry() throws {
    let plan = try plan()
    let (violations, validator) = validate([order(goodOrder)], plan: plan)
    XCTAssertEqual(violations, [])
    let item = try XCTUnwrap(plan.coverageItems.firstIndex { $0.id == "segment call Order Completed" })
    XCTAssertEqual(validator.coverage.counts[item], 1)
    XCTAssertEqual(validator.coverage.state(at: item).kind, .passed)
    XCTAssertEqual(plan.coverageItems[item].sectionKey, "catalogues")
    // The checklist's enter lists the records that cover it, with a filter the debugger parses.
    XCTAssertEqual(plan.coverageItems[item].debuggerFilter, "provider:segment call:\"Order Completed\"")
    guard case .success(let filter) = Filter.parse(plan.coverageItems[item].debuggerFilter) else {
      return XCTFail("the filter does not parse")
    }
    XCTAssertTrue(filter.acceptsCalls(order(goodOrder)))
    XCTAssertFalse(filter.acceptsCalls(order(goodOrder, name: "Cart Viewed")))
  }

  func testValuesInsideArraysAndObjectsAreCheckedWithTheirPath() throws {
    var bad = goodOrder
    if case .object(var object) = bad {
      object["products"] = [["price": 10], ["price": "free"], [:]]
      object["currency"] = "USD"
      object["order_id"] = "not-a-uuid"
      object["coupon"] = "X"
      bad = .object(object)
    }
    let (violations, validator) = validate([order(bad)], plan: try plan())
    let found = violations.map { "\($0.rule.rawValue) \($0.message)" }
    XCTAssertEqual(
      found,
      [
        "invalid-value Order Completed: segment track Order Completed parameter properties.order_id is \"not-a-uuid\", plan line 14 expects format uuid",
        "invalid-value Order Completed: segment track Order Completed parameter properties.currency is \"USD\", plan line 15 expects \"EUR\"",
        "wrong-type Order Completed: segment track Order Completed parameter properties.products[1].price is a string (\"free\"), plan line 22 expects number",
        "missing-param Order Completed: segment track Order Completed parameter properties.products[2].price is missing, plan line 22 requires it",
        "unexpected-property Order Completed: segment track Order Completed parameter properties.coupon is not planned, plan line 9 lists order_id, currency, placed_at, products",
      ])
    XCTAssertTrue(violations.allSatisfy { $0.provider == "segment" && $0.severity == .error })
    let item = try XCTUnwrap(validator.coverage.items.firstIndex { $0.id == "segment call Order Completed" })
    guard case .failing(let rules, _, _) = validator.coverage.state(at: item) else {
      return XCTFail("expected failing, got \(validator.coverage.state(at: item))")
    }
    XCTAssertEqual(Set(rules), [.invalidValue, .wrongType, .missingParam, .unexpectedProperty])
    let comparison = violations[2].comparison
    XCTAssertEqual(comparison.rows.last?.field, "param properties.products[1].price")
    XCTAssertEqual(comparison.rows.last?.actual, "\"free\"")
    XCTAssertEqual(comparison.rows.last?.expected, "number, required, minimum 0")
  }

  func testAMissingRequiredParameterIsMissingParam() throws {
    let (violations, _) = validate(
      [
        record(
          1, .event, "Order Completed", outputs: [sent("segment", "Order Completed", [:], method: "track")])
      ],
      plan: try plan())
    XCTAssertEqual(violations.map(\.rule), [.missingParam])
    XCTAssertTrue(violations[0].message.contains("parameter properties is missing, plan line 9"))
  }

  func testUnplannedCallsFollowTheCataloguesSetting() throws {
    let plan = try plan()
    let (violations, _) = validate(
      [
        order(goodOrder, name: "Cart Viewed"),
        record(2, .event, "x", outputs: [sent("firebase", "app_opened")]),
        record(3, .event, "y", outputs: [sent("amplitude", "Anything")]),
      ], plan: plan)
    XCTAssertEqual(violations.map(\.rule), [.unplannedCall])
    XCTAssertEqual(violations[0].severity, .warning)
    XCTAssertEqual(
      violations[0].message,
      "Cart Viewed: segment got track Cart Viewed, which the segment catalogue (plan line 3) does not list")
    XCTAssertEqual(violations[0].planLine, 3)
  }

  func testAMethodEntryMatchesCallsOfAnyNameWithItsMethod() throws {
    let identify = record(
      1, .identify, "identify",
      outputs: [sent("segment", "user-42", ["traits": ["email": "not an email"]], method: "identify")])
    let (violations, validator) = validate([identify], plan: try plan())
    XCTAssertEqual(violations.map(\.rule), [.invalidValue])
    XCTAssertTrue(
      violations[0].message.contains("parameter traits.email is \"not an email\""), violations[0].message)
    let item = try XCTUnwrap(validator.coverage.items.firstIndex { $0.id == "segment method identify" })
    XCTAssertEqual(validator.coverage.counts[item], 1)
  }

  func testEntrySeverityCallLevelAdditionalPropertiesAndAParamList() throws {
    let (violations, _) = validate(
      [
        record(
          1, .event, "a", outputs: [sent("segment", "Signed Up", ["anonymousId": "x"], method: "track")]),
        record(2, .event, "b", outputs: [sent("firebase", "purchase", ["value": 3, "currency": "EUR"])]),
      ], plan: try plan())
    XCTAssertEqual(violations.map(\.rule), [.missingParam, .unexpectedProperty])
    XCTAssertEqual(violations.map(\.severity), [.warning, .error])
    XCTAssertTrue(violations[1].message.contains("parameter currency is not planned"), violations[1].message)
  }

  func testBlockedOutputsAreNotChecked() throws {
    var blocked = order(["products": "nope"])
    blocked.outputs[0].status = .blocked
    XCTAssertEqual(validate([blocked], plan: try plan()).0, [])
  }

  func testNestedPropertiesOfATagAreCheckedToo() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: P
        events:
          checkout:
            properties:
              cart:
                type: object
                properties:
                  items: {type: array, items: {type: string, enum: [a, b]}}
                  total: {type: number, required: true}
        """, file: "p.yaml")
    let (violations, _) = validate(
      [record(1, .event, "checkout", ["cart": ["items": ["a", "c"]]])], plan: plan)
    XCTAssertEqual(
      violations.map(\.message),
      [
        "checkout: property cart.items[1] is \"c\", plan line 8 allows only \"a\", \"b\"",
        "checkout: property cart.total is missing, plan line 9 requires it",
      ])
    XCTAssertEqual(violations.map(\.rule), [.invalidValue, .missingProperty])
  }

  func testReportsNameCatalogueItemsAndTheirEvidence() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The same bad call twice: the second is validated from the content cache, alike.
    let bad = order(["order_id": 7])
    var again = bad
    again.seq = 2
    let path = try writeRecording([bad, again], named: "shop.jsonl", in: directory)
    let outcome = ValidateRunner.run(plan: try plan(), recordings: [path], format: .json, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 1)
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
    let violations = try XCTUnwrap(json["violations"] as? [[String: Any]])
    XCTAssertEqual(violations.count, 2)
    XCTAssertEqual(violations.map { $0["rule"] as? String }, ["wrong-type", "wrong-type"])
    let expected = try XCTUnwrap(violations[1]["expected"] as? [String: Any])
    XCTAssertEqual(expected["param"] as? String, "properties.order_id")
    XCTAssertEqual(expected["call"] as? String, "track Order Completed")
    let actual = try XCTUnwrap(violations[1]["actual"] as? [String: Any])
    XCTAssertEqual(actual["value"] as? Int, 7)
    let items = try XCTUnwrap((json["coverage"] as? [String: Any])?["items"] as? [[String: Any]])
    let entry = try XCTUnwrap(items.first { $0["id"] as? String == "segment call Order Completed" })
    XCTAssertEqual(entry["section"] as? String, "catalogues")
    XCTAssertEqual(entry["state"] as? String, "failing")
    let junit = ValidateRunner.run(plan: try plan(), recordings: [path], format: .junit, failOn: .error)
      .output
    XCTAssertTrue(junit.contains("classname=\"Shop.catalogues.segment.call Order Completed\""), junit)
    let html = ValidateRunner.run(plan: try plan(), recordings: [path], format: .html, failOn: .error).output
    XCTAssertTrue(html.contains("Provider call catalogues"))
    XCTAssertTrue(html.contains("method identify"))
  }

  func testLoadErrorsNameTheKey() {
    let cases: [(String, String)] = [
      (
        "catalogues: {segment: {unplanned: maybe}}",
        "unplanned of catalogue segment must be error, warning or allowed"
      ),
      (
        "catalogues: {segment: {calls: {a: {params: {x: {format: phone}}}}}}",
        "format of property x of params of call a of catalogue segment must be one of"
      ),
      ("catalogues: {segment: {calls: {a: {when: 1}}}}", "unknown key 'when' in call a of catalogue segment"),
      (
        "catalogues: {segment: {methods: {identify: {method: x}}}}", "unknown key 'method' in method identify"
      ),
      ("catalogues: {segment: {calls: {a: {additionalProperties: 3}}}}", "additionalProperties of call a"),
      ("catalogues: {segment: {shapes: {}}}", "unknown key 'shapes' in catalogue segment"),
    ]
    for (yaml, message) in cases {
      XCTAssertThrowsError(try PlanLoader.load(yaml: "plan: P\n" + yaml, file: "p.yaml"), yaml) { error in
        XCTAssertTrue("\(error)".contains(message), "\(error) should contain \(message)")
        XCTAssertTrue("\(error)".hasPrefix("p.yaml:2:"), "\(error)")
      }
    }
    let deep =
      String(repeating: "{type: object, properties: {x: ", count: 40) + "{}"
      + String(repeating: "}}", count: 40)
    XCTAssertThrowsError(
      try PlanLoader.load(yaml: "plan: P\nevents: {e: {properties: {x: \(deep)}}}", file: "p.yaml")
    ) {
      XCTAssertTrue("\($0)".contains("nests deeper than 32 levels"), "\($0)")
    }
  }

  func testFormats() {
    let cases: [(ValueFormat, String, Bool)] = [
      (.dateTime, "2026-11-24T19:05:00Z", true), (.dateTime, "2026-11-24T19:05:00.123+01:00", true),
      (.dateTime, "2024-02-29t00:00:00z", true), (.dateTime, "2026-02-29T00:00:00Z", false),
      (.dateTime, "2026-11-24", false), (.dateTime, "2026-11-24T25:00:00Z", false),
      (.dateTime, "2026-11-24T19:05:00", false), (.email, "a.b@example.com", true),
      (.email, "a@b@c", false), (.email, "a b@example.com", false), (.email, "@example.com", false),
      (.email, "a@example..com", false), (.uri, "https://example.com/x?y=1", true),
      (.uri, "urn:isbn:123", true),
      (.uri, "/relative/path", false), (.uri, "https://exa mple.com", false),
      (.uuid, "123E4567-e89b-12d3-a456-426614174000", true),
      (.uuid, "123e4567e89b12d3a456426614174000", false),
      (.uuid, "123e4567-e89b-12d3-a456-42661417400g", false),
    ]
    for (format, text, valid) in cases {
      XCTAssertEqual(format.accepts(text), valid, "\(format.rawValue) \(text)")
    }
  }

  func testHostileArraysReportAtMostTheLimit() throws {
    let many = PropertyValue.array(Array(repeating: ["price": "x"], count: 10_000))
    let (violations, _) = validate(
      [order(["products": many, "order_id": "123e4567-e89b-12d3-a456-426614174000"])], plan: try plan())
    // Besides Segment's own 32 KB message rule.
    XCTAssertEqual(violations.filter { $0.rule != .providerRule }.count, 20)
  }
}
