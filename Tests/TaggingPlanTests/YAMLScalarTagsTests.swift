import TagscopeFuzzing
import XCTest

@testable import TaggingPlan

/// The plan loader reads each scalar's type itself (``YAMLScalarTags``) instead of Yams's regular
/// expressions: it must give what Yams's default resolver gives, for every text.
final class YAMLScalarTagsTests: XCTestCase {
  private func assertAgrees(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(
      YAMLScalarTags.implicitName(of: text).rawValue, YAMLScalarTags.regexName(of: text).rawValue,
      "plain scalar \"\(text)\"", file: file, line: line)
  }

  func testEveryKindOfScalarResolvesAsYamsDefaultResolverDoes() {
    let texts = [
      "", "~", "null", "Null", "NULL", "nULL", "nil", "none", "true", "True", "TRUE", "tRUE", "false", "yes",
      "Yes", "YES", "y", "n", "no", "No", "NO", "on", "On", "ON", "oN", "off", "Off", "OFF", "0", "00", "007",
      "08", "-0", "+0", "12", "-12", "+12", "1_000", "0x1F", "0X1F", "-0x1f", "0b101", "0o17", "0o", "1:30",
      "190:20:30", "1.5", "-1.5", "+1.5", "1.", "1.5.2", ".5", "-.5", "1e5", "1E+5", "1.5e-3", "1.5e", ".inf",
      "-.inf", "+.Inf", ".INF", ".nan", ".NaN", ".NAN", "-.nan", "2024-01-31", "2024-1-31 10:20:30",
      "2001-12-14t21:59:43.10-05:00", "2024-01-31T", "<<", "<", "<<<", "=", "==", "-", "+", ".", "..",
      "1-0-0", "iglu:com.acme/add_to_cart/jsonschema/1-0-0", "^[a-f0-9-]{36}$", "Order Completed",
      "properties", "type", "string", "1 2", "12 ", " 12", "١٢", "１２", "é", "true story", "nullable",
    ]
    for text in texts { assertAgrees(text) }
  }

  /// Texts of the characters that matter to the rules, as a seeded generator draws them.
  func testRandomTextsResolveAsYamsDefaultResolverDoes() {
    let alphabet = Array("0123456789+-._:eExXoObB tTrRuUfFlLsSnNyYaA~<=iI")
    var generator = SeededGenerator(seed: 29)
    for _ in 0..<4_000 {
      let length = Int(generator.next() % 7)
      let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
      assertAgrees(text)
    }
  }

  /// Plans load as before: what each scalar of a plan reads as (a sample of every kind).
  func testPlanScalarsKeepTheirTypes() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: P
        events:
          play:
            properties:
              count: {type: integer, minimum: 0, maximum: 0x10}
              ratio: {type: number, minimum: -1.5, maximum: 1e3}
              label: {type: string, enum: [yes, "no", 12, null, ~, 1.5, on]}
              flag: {type: boolean, required: true}
        """, file: "plan.yaml")
    let rules = try XCTUnwrap(plan.entries.first?.properties)
    let byName = Dictionary(uniqueKeysWithValues: rules.map { ($0.name, $0) })
    XCTAssertEqual(byName["count"]?.maximum, 16)
    XCTAssertEqual(byName["ratio"]?.minimum, -1.5)
    XCTAssertEqual(byName["ratio"]?.maximum, 1000)
    XCTAssertEqual(
      byName["label"]?.allowed,
      [.bool(true), .string("no"), .int(12), .null, .null, .double(1.5), .bool(true)])
    XCTAssertEqual(byName["flag"]?.required, true)
  }

  /// A mapping's empty plain key is still "nothing" in the error (Yams has compared it as a string).
  func testAnEmptyKeyIsNamedNothing() {
    XCTAssertThrowsError(try PlanLoader.load(yaml: "plan: P\nevents:\n  ? \n  : {}\n", file: "plan.yaml")) {
      XCTAssertTrue("\($0)".contains("must be names, found nothing"), "\($0)")
    }
  }
}
