import AnalyticsHub
import TaggingPlan
import TaggingPlanImport
import XCTest

/// An imported bound or enum value keeps its digits: before, every number went through `Double`,
/// so `maximum: 18446744073709551615` was written `1.8446744073709552e+19` (2^64, which then let
/// 2^64 pass) and 2^53 + 1 became 2^53.
final class ExactNumberImportTests: XCTestCase {
  private static let schema = """
    {"title": "Big", "type": "object",
     "properties": {
       "counter": {"type": "integer", "minimum": -9223372036854775809, "maximum": 18446744073709551615},
       "id": {"enum": [18446744073709551616, 9007199254740993, 1.5]}}}
    """

  private func check(_ plan: ImportedPlan, file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertTrue(
      plan.yaml.contains("minimum: -9223372036854775809, maximum: 18446744073709551615"), plan.yaml,
      file: file, line: line)
    XCTAssertTrue(
      plan.yaml.contains("[18446744073709551616, 9007199254740993, 1.5]"), plan.yaml, file: file, line: line)
    let param = try XCTUnwrap(plan.catalogue.calls.first?.params.first { $0.name == "counter" })
    XCTAssertEqual(param.constraints.maximumValue, PropertyValue.integer(digits: "18446744073709551615"))
    // The plan written loads with the same digits, and checks them exactly.
    let loaded = try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml")
    let rule = try XCTUnwrap(loaded.catalogues.first?.entries.first?.params.first { $0.name == "counter" })
    XCTAssertEqual(
      rule.maximumValue, PropertyValue.integer(digits: "18446744073709551615"), file: file, line: line)
    XCTAssertEqual(
      rule.minimumValue, PropertyValue.integer(digits: "-9223372036854775809"), file: file, line: line)
  }

  func testAJSONSchemaBoundPastInt64KeepsItsDigits() throws {
    try check(try importText(Self.schema, file: "big.json", format: .jsonschema, provider: "segment"))
  }

  func testTheSameSchemaInYAMLKeepsItsDigits() throws {
    let yaml = """
      title: Big
      type: object
      properties:
        counter: {type: integer, minimum: -9223372036854775809, maximum: 18446744073709551615}
        id: {enum: [18446744073709551616, 9007199254740993, 1.5]}
      """
    try check(try importText(yaml, file: "big.yaml", format: .jsonschema, provider: "segment"))
  }

  /// `multipleOf` divides an integer exactly: before, the value went through `Double`, where
  /// every number past 2^53 is a multiple of 2 and 10^20 one of 3.
  func testMultipleOfDividesLargeIntegersExactly() throws {
    let plan = try importText(
      """
      {"title": "Big", "type": "object", "properties": {
        "even": {"type": "integer", "multipleOf": 2}, "third": {"type": "integer", "multipleOf": 3},
        "huge": {"type": "integer", "multipleOf": 18446744073709549568}}}
      """, file: "big.json", format: .jsonschema, provider: "segment")
    let loaded = try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml")
    let params = try XCTUnwrap(loaded.catalogues.first?.entries.first?.params)
    let cases: [(String, String, Bool)] = [
      ("even", "9007199254740993", false), ("even", "9007199254740994", true),
      ("even", "18446744073709551617", false), ("even", "-36893488147419103234", true),
      ("third", "100000000000000000000", false), ("third", "100000000000000000002", true),
      ("huge", "36893488147419099136", true), ("huge", "36893488147419099137", false),
    ]
    for (name, digits, multiple) in cases {
      let rule = try XCTUnwrap(params.first { $0.name == name })
      let value = try XCTUnwrap(PropertyValue.integer(digits: digits))
      XCTAssertEqual(rule.problem(with: value) == nil, multiple, "\(digits) multipleOf of \(name)")
    }
    let third = try XCTUnwrap(params.first { $0.name == "third" })
    XCTAssertNotNil(third.problem(with: .double(1e20)), "1e20 is 10^20, no multiple of 3")
    XCTAssertNotNil(third.problem(with: .double(4.5)), "a fraction is checked as before")
    XCTAssertNil(third.problem(with: .double(6)))
  }

  /// A divisor past 2^53 is held as its nearest double: the import says so at its place.
  func testADivisorPast2To53IsReportedAsRounded() throws {
    let plan = try importText(
      #"{"title": "Big", "type": "object", "properties": {"n": {"multipleOf": 9007199254740993}}}"#,
      file: "big.json", format: .jsonschema, provider: "segment")
    XCTAssertTrue(
      plan.warnings.map(\.description).contains {
        $0.hasPrefix("big.json:1:57: warning: multipleOf 9007199254740993 (")
      }, "\(plan.warnings)")
  }
}
