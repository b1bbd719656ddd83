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
    XCTAssertEqual(
      calls.count, count, importerWarnings(plan).map(\.description).prefix(3).joined(separator: "\n"))
    for (index, call) in calls.enumerated() {
      XCTAssertEqual(call.key, "e\(index)")
      XCTAssertEqual(call.params.map(\.name), ["q", "p"])
      XCTAssertEqual(call.params.last?.constraints.maximum, Double((index + count - 1) % count))
    }
  }
  /// `$id`s name resources against the base around them; anchors live in their resource; a
  /// resource the document does not hold is outside it.
  func testIdsAndAnchorsResolveAgainstTheirBaseURI() throws {
    let document = try node(
      """
      {"$id": "https://example.com/schemas/root.json",
       "$defs": {
         "a": {"$id": "a/one.json", "$anchor": "top",
               "$defs": {"inner": {"$anchor": "x", "maximum": 1}, "old": {"$id": "#legacy", "maximum": 2}}},
         "u": {"$id": "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "$defs": {"v": {"maximum": 3}}},
         "d": {"$dynamicAnchor": "node", "maximum": 4},
         "e": {"enum": [{"$id": "not-an-id.json"}]}}}
      """)
    let pointers = SchemaPointers(document: document)
    let root = pointers.rootBase
    XCTAssertEqual(root.text, "https://example.com/schemas/root.json")
    func path(_ reference: String) -> String? { pointers.target(root.resolving(reference))?.path.description }
    XCTAssertEqual(path("a/one.json"), "$defs.a")
    XCTAssertEqual(path("a/one.json#x"), "$defs.a.$defs.inner")
    XCTAssertEqual(path("https://example.com/schemas/a/one.json#top"), "$defs.a")
    XCTAssertEqual(path("a/one.json#legacy"), "$defs.a.$defs.old")
    XCTAssertEqual(path("a/one.json#/$defs/inner"), "$defs.a.$defs.inner")
    XCTAssertEqual(path("urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/v"), "$defs.u.$defs.v")
    XCTAssertEqual(path("#node"), "$defs.d")
    XCTAssertNil(path("#x"), "an anchor of another resource")
    XCTAssertNil(path("not-an-id.json"), "an $id inside enum is data")
    XCTAssertFalse(pointers.holds(root.resolving("other.json#/a")))
    XCTAssertTrue(pointers.holds(root.resolving("a/one.json#nothing")))
    // Inside resource `a`, its pointers resolve with `a`'s base around the target.
    let inner = try XCTUnwrap(pointers.target(root.resolving("a/one.json#/$defs/inner")))
    XCTAssertEqual(inner.base.text, "https://example.com/schemas/a/one.json")
    // A `$dynamicRef` whose first target has the `$dynamicAnchor` goes to the outermost
    // resource of the scope that has one.
    let dynamic = try XCTUnwrap(pointers.dynamicTarget(root.resolving("#node"), scopes: [root.resource]))
    XCTAssertEqual(dynamic.path.description, "$defs.d")
  }

  /// Many anchors, each referred to by the next event: every reference finds its own anchor
  /// (the anchors are indexed once, not searched per reference).
  func testEveryEventOfManyResolvesItsOwnAnchor() throws {
    let count = 2_000
    let events = (0..<count).map {
      """
      "e\($0)": {"type": "object", "properties": {"q": {"$anchor": "q\($0)", "type": "integer", "maximum": \($0)},
        "p": {"$ref": "#q\(($0 + count - 1) % count)"}}}
      """
    }
    let text = "{\"$defs\": {\(events.joined(separator: ", "))}}"
    let plan = try PlanImporter.run(
      documents: [try JSONDocumentReader.read(text, file: "events.json")], format: .jsonschema,
      options: ImportOptions(provider: "amplitude"))
    XCTAssertEqual(plan.catalogue.calls.count, count)
    for (index, call) in plan.catalogue.calls.enumerated() {
      XCTAssertEqual(call.params.last?.constraints.maximum, Double((index + count - 1) % count))
    }
  }

  func testTheDialectsWhoseRefsIgnoreTheirSiblingsAreToldByName() {
    for dialect in [
      "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema", "draft-0",
      "https://json-schema.org/draft-03/schema#",
    ] {
      XCTAssertTrue(SchemaPointers.namesDraft07OrEarlier(dialect), dialect)
    }
    for dialect in [
      "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft/2019-09/schema#",
      "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#", "",
      "draft-", "d",
    ] {
      XCTAssertFalse(SchemaPointers.namesDraft07OrEarlier(dialect), dialect)
    }
  }
}
