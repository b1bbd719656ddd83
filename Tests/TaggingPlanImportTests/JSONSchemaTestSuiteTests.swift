import AnalyticsHub
import Foundation
import TaggingPlan
import XCTest

@testable import TaggingPlanImport

/// The official JSON-Schema-Test-Suite (Fixtures/json-schema-test-suite, see its README): each
/// case's schema goes the way an import takes it — converted, written as plan YAML, loaded — and
/// each instance is judged by the loaded rule against the suite's `valid`.
final class JSONSchemaTestSuiteTests: XCTestCase {
  /// One file's tally.
  struct Tally {
    var passed = 0
    var total = 0
    var failures: [String] = []
  }

  static let directory = fixture("json-schema-test-suite")

  /// Every file of both drafts, each instance judged; prints `keyword: passed/total`.
  func testEveryClaimedKeywordPassesAllItsCases() throws {
    var unexpected: [String] = []
    var table: [String] = []
    var stale: [String] = []
    for draft in ["draft7", "draft2019-09", "draft2020-12"] {
      let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory + "/" + draft)
        .filter { $0.hasSuffix(".json") }.sorted()
      for file in files {
        let tally = try run("\(draft)/\(file)")
        let keyword = String(file.dropLast(5)).replacingOccurrences(of: "format-", with: "format: ")
        table.append("\(draft)/\(keyword): \(tally.passed)/\(tally.total)")
        unexpected += tally.failures.filter { Self.leftOut[$0] == nil }
        stale += Self.leftOut.keys.filter {
          $0.hasPrefix("\(draft)/\(file):") && !tally.failures.contains($0)
        }
      }
    }
    print(table.joined(separator: "\n"))
    XCTAssertEqual(stale.sorted(), [], "cases left out that now pass: take them off the list")
    XCTAssert(
      unexpected.isEmpty,
      "cases judged unlike the suite and not left out with a reason:\n" + unexpected.joined(separator: "\n"))
  }

  /// The cases of one file, judged.
  func run(_ name: String) throws -> Tally {
    let path = Self.directory + "/" + name
    let root = try DocumentReader.parse(try String(contentsOfFile: path, encoding: .utf8), file: name)
    var tally = Tally()
    for group in root.elements ?? [] {
      guard let schema = group["schema"], let tests = group["tests"]?.elements else { continue }
      let groupName = group["description"]?.string ?? "?"
      let rule = try? Self.rule(schema, file: name)
      for test in tests {
        guard let data = test["data"], let valid = test["valid"]?.bool else { continue }
        tally.total += 1
        var memo = PatternMemo()
        if let rule, rule.conforms(SchemaConverter.value(data), memo: &memo) == valid {
          tally.passed += 1
        } else {
          tally.failures.append("\(name): \(groupName) / \(test["description"]?.string ?? "?")")
        }
      }
    }
    return tally
  }

  /// The rule a schema becomes through the importer's converter, its YAML writer and the plan
  /// loader.
  static func rule(_ schema: SourceNode, file: String) throws -> PropertyRule? {
    // The suite's draft-07 schemas do not say their draft: it is the directory's.
    let pointers = SchemaPointers(document: schema, legacyRefs: file.hasPrefix("draft7/") ? true : nil)
    var converter = SchemaConverter(file: file, document: schema, pointers: pointers)
    let constraints = converter.constraints(schema, path: .root)
    let yaml =
      "plan: Suite\nactions:\n  checked:\n    properties:\n"
      + CatalogueWriter.property(NamedConstraints(name: "value", constraints: constraints), indent: 6)
    let plan = try PlanLoader.load(yaml: yaml, file: file)
    return plan.entries.first?.properties?.first
  }

  /// A rule the loader reads from YAML judges a conforming and a breaking value of a keyword:
  /// the message names the value and the constraint.
  func testKeywordMessagesNameValueAndConstraint() throws {
    let yaml = """
      plan: P
      actions:
        a:
          properties:
            count: {type: integer, multipleOf: 5}
            tags: {type: array, minItems: 1, uniqueItems: true}
            kind: {oneOf: [{type: string}, {const: 3}]}
      """
    let plan = try PlanLoader.load(yaml: yaml, file: "p.yaml")
    let rules = try XCTUnwrap(plan.entries.first?.properties)
    XCTAssertNil(rules[0].problem(with: .int(10)))
    XCTAssertEqual(rules[0].problem(with: .int(7))?.found, "is 7")
    XCTAssertEqual(rules[0].problem(with: .int(7))?.expected, "expects a multiple of 5")
    XCTAssertEqual(rules[1].problem(with: .array([]))?.expected, "expects at least 1")
    XCTAssertEqual(
      rules[1].problem(with: .array([.string("a"), .string("a")]))?.found, "repeats item 0 at index 1 (\"a\")"
    )
    XCTAssertNil(rules[2].problem(with: .int(3)))
    XCTAssertEqual(rules[2].problem(with: .bool(true))?.expected, "expects exactly one")
  }

  /// A required property whose type lists null takes an explicit null; one whose type does not
  /// is missing when null.
  func testRequiredNullableTakesNull() throws {
    let yaml = """
      plan: P
      actions:
        a:
          properties:
            o:
              properties:
                nullable: {type: [string, "null"], required: true}
                strict: {type: string, required: true}
      """
    let plan = try PlanLoader.load(yaml: yaml, file: "p.yaml")
    let rule = try XCTUnwrap(plan.entries.first?.properties?.first)
    var memo = PatternMemo()
    XCTAssertTrue(rule.conforms(.object(["nullable": .null, "strict": "x"]), memo: &memo))
    XCTAssertFalse(rule.conforms(.object(["nullable": .null, "strict": .null]), memo: &memo))
    XCTAssertFalse(rule.conforms(.object(["strict": "x"]), memo: &memo))
  }
}
