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
}
