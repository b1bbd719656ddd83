import AnalyticsHub
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// A plan's numbers are kept as written and compared exactly: before, `maximum:
/// 18446744073709551615` and the value 18446744073709551616 were both the double 2^64, so the value
/// passed; an `enum` of a large integer was read as a string.
final class ExactBoundsTests: XCTestCase {
  private func plan() throws -> Plan {
    try PlanLoader.load(
      yaml: """
        plan: P
        events:
          big:
            properties:
              counter: {type: integer, minimum: -9223372036854775809, maximum: 18446744073709551615}
              id: {enum: [18446744073709551616, 7]}
              fixed: {const: -9223372036854775809}
              open: {exclusiveMinimum: -9223372036854775809, exclusiveMaximum: 18446744073709551616}
        """, file: "plan.yaml")
  }

  private func large(_ digits: String) -> PropertyValue { PropertyValue.integer(digits: digits)! }

  private func violations(_ properties: Properties) throws -> [String] {
    var all: Properties = ["id": 7, "fixed": large("-9223372036854775809")]
    for (key, value) in properties { all[key] = value }
    return validate([record(1, .event, "big", all)], plan: try plan()).0.map(\.message)
  }

  func testBoundsPastInt64AreExact() throws {
    XCTAssertEqual(try violations(["counter": large("18446744073709551615")]), [])
    XCTAssertEqual(try violations(["counter": large("-9223372036854775809")]), [])
    XCTAssertEqual(try violations(["counter": .int(.max)]), [])
    let above = try violations(["counter": large("18446744073709551616")])
    XCTAssertEqual(above.count, 1, "\(above)")
    XCTAssertTrue(above.first?.contains("is 18446744073709551616") ?? false, "\(above)")
    XCTAssertTrue(above.first?.contains("expects at most 18446744073709551615") ?? false, "\(above)")
    let below = try violations(["counter": large("-9223372036854775810")])
    XCTAssertEqual(below.count, 1, "\(below)")
    XCTAssertTrue(below.first?.contains("expects at least -9223372036854775809") ?? false, "\(below)")
    // A double is still compared by its exact value: 2^64 is above 2^64 - 1.
    XCTAssertEqual(try violations(["counter": .double(18_446_744_073_709_551_616)]).count, 1)
  }

  func testExclusiveBoundsPastInt64AreExact() throws {
    XCTAssertEqual(try violations(["open": large("18446744073709551615")]), [])
    XCTAssertEqual(try violations(["open": large("-9223372036854775808")]), [])
    let above = try violations(["open": large("18446744073709551616")])
    XCTAssertEqual(above.count, 1, "\(above)")
    XCTAssertTrue(above.first?.contains("expects less than 18446744073709551616") ?? false, "\(above)")
    XCTAssertEqual(try violations(["open": large("-9223372036854775809")]).count, 1)
  }

  /// A `multipleOf` a double cannot hold is refused at its line (before, 9007199254740993 was read
  /// as 9007199254740992, so every multiple of 2^53 passed); one it holds is kept.
  func testADivisorPast2To53IsRefusedUnlessADoubleHoldsIt() throws {
    func load(_ divisor: String) throws -> Plan {
      try PlanLoader.load(
        yaml: """
          plan: P
          events:
            big:
              properties:
                counter: {type: integer, multipleOf: \(divisor)}
          """, file: "plan.yaml")
    }
    XCTAssertThrowsError(try load("9007199254740993")) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("plan.yaml:5"), text)
      XCTAssertTrue(text.contains("is 9007199254740993, which cannot be checked exactly"), text)
      XCTAssertTrue(text.contains("the nearest is 9007199254740992"), text)
    }
    let plan = try load("9007199254740992")
    let passed = validate([record(1, .event, "big", ["counter": large("18014398509481984")])], plan: plan)
    XCTAssertEqual(passed.0.map(\.message), [])
    let failed = validate([record(1, .event, "big", ["counter": large("9007199254740993")])], plan: plan)
    XCTAssertEqual(failed.0.count, 1, "\(failed.0.map(\.message))")
  }

  func testEnumAndConstOfLargeIntegersAreExact() throws {
    XCTAssertEqual(try violations(["id": large("18446744073709551616")]), [])
    XCTAssertEqual(try violations(["id": large("18446744073709551617")]).count, 1)
    XCTAssertEqual(try violations(["fixed": large("-9223372036854775810")]).count, 1)
    let rules = try XCTUnwrap(try plan().entries.first?.properties)
    XCTAssertEqual(rules[1].allowed, [large("18446744073709551616"), 7])
    XCTAssertEqual(rules[0].maximumValue, large("18446744073709551615"))
  }

  func testTheJSONReportWritesTheBoundsDigits() throws {
    let rule = try XCTUnwrap(try plan().entries.first?.properties?.first)
    let json = JSONWriter.string { rule.writeJSONSchema(into: &$0) }
    XCTAssertTrue(json.contains(#""minimum":-9223372036854775809,"maximum":18446744073709551615"#), json)
    XCTAssertEqual(
      rule.constraintText, "integer, minimum -9223372036854775809, maximum 18446744073709551615")
  }
}
