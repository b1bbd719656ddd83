import TaggingPlan
import XCTest

@testable import TaggingPlanImport

/// `$ref` pointers resolved once per document: each object of many members indexed by key, each
/// pointer's target remembered, with what a scan of the members found.
final class SchemaPointersTests: XCTestCase {
  private func node(_ json: String) throws -> SourceNode {
    try JSONDocumentReader.read(json, file: "p.json").root
  }

  func testAnIndexedObjectResolvesAsAScanWouldFirstDuplicateIncluded() throws {
    let definitions = (0..<40).map { "\"d\($0)\": {\"maximum\": \($0)}" }.joined(separator: ", ")
    let document = try node(
      """
      {"$defs": {\(definitions), "d7": {"maximum": 999}, "a/b": {"maximum": -1}, "t~x": {"maximum": -2},
       "sp ace": {"maximum": -3}}, "list": [{"maximum": -4}]}
      """)
    let pointers = SchemaPointers(document: document)
    for index in [0, 7, 39] {
      let found = try XCTUnwrap(pointers.resolve("#/$defs/d\(index)"))
      XCTAssertEqual(found.node.location, document["$defs"]?["d\(index)"]?.location)
      XCTAssertEqual(found.path, JSONPath.root.keys("$defs", "d\(index)"))
    }
    // The first of two members with one key, as the scan found it.
    XCTAssertEqual(pointers.resolve("#/$defs/d7")?.node.location, document["$defs"]?["d7"]?.location)
    XCTAssertEqual(pointers.resolve("#/$defs/a~1b")?.path, JSONPath.root.keys("$defs", "a/b"))
    XCTAssertEqual(pointers.resolve("#/$defs/t~0x")?.path, JSONPath.root.keys("$defs", "t~x"))
    XCTAssertEqual(pointers.resolve("#/$defs/sp%20ace")?.path, JSONPath.root.keys("$defs", "sp ace"))
    XCTAssertEqual(pointers.resolve("#/list/0")?.path, JSONPath.root.key("list").index(0))
    XCTAssertEqual(pointers.resolve("#")?.path, JSONPath.root)
    XCTAssertNil(pointers.resolve("#/$defs/d40"))
    XCTAssertNil(pointers.resolve("#/list/1"))
    XCTAssertNil(pointers.resolve("#$defs"))
    // Asked again: the same answer (remembered).
    XCTAssertEqual(pointers.resolve("#/$defs/d39")?.path, JSONPath.root.keys("$defs", "d39"))
    XCTAssertNil(pointers.resolve("#/$defs/d40"))
  }

  /// Many event schemas in one `$defs`, each referring to a property of the one before: every
  /// reference resolved to its own target through the importer.
  func testEveryEventOfManyResolvesItsOwnReference() throws {
    let count = 2_000
    let events = (0..<count).map {
      """
      "e\($0)": {"type": "object", "properties": {"q": {"type": "integer", "maximum": \($0)},
        "p": {"$ref": "#/$defs/e\(($0 + count - 1) % count)/properties/q"}}}
      """
    }
    let text = "{\"$defs\": {\(events.joined(separator: ", "))}}"
    let plan = try PlanImporter.run(
      documents: [try JSONDocumentReader.read(text, file: "events.json")], format: .jsonschema,
      options: ImportOptions(provider: "amplitude"))
    let calls = plan.catalogue.calls
    XCTAssertEqual(calls.count, count, plan.warnings.map(\.description).prefix(3).joined(separator: "\n"))
    for (index, call) in calls.enumerated() {
      XCTAssertEqual(call.key, "e\(index)")
      XCTAssertEqual(call.params.map(\.name), ["q", "p"])
      XCTAssertEqual(call.params.last?.constraints.maximum, Double((index + count - 1) % count))
    }
  }
}
