import TaggingPlan
import TaggingPlanImport
import XCTest

final class JSONSchemaImportTests: XCTestCase {
  func testAvoExportImportsAsTheGoldenYAML() throws {
    let plan = try importFixtures(["avo-export.json"], options: ImportOptions(provider: "amplitude"))
    XCTAssertEqual(plan.format, .jsonschema)
    XCTAssertEqual(plan.name, "Avo")
    try assertGolden(plan, "avo-export.yaml")
  }

  func testOneSchemaPerFileAndADefsCollection() throws {
    let plan = try importFixtures(
      ["amplitude-song-played.json", "events-2020-12.json"], options: ImportOptions(provider: "amplitude"))
    try assertGolden(plan, "jsonschema.yaml")
    XCTAssertEqual(
      plan.catalogue.calls.map(\.key), ["Song Played", "Search", "Search Refined", "Tree Opened"])
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        #"events-2020-12.json:19:20: warning: $ref "https://example.com/schemas/origin.json" ($defs["Search Refined"].properties.origin.$ref) is outside the document: the property is not checked by Tagscope"#,
        ##"events-2020-12.json:29:53: warning: $ref "#/$defs/Tree%20Opened/properties/node" ($defs["Tree Opened"].properties.node.properties.children.items.$ref) refers to itself: the property is left unconstrained"##,
      ])
  }

  func testTheProviderIsRequired() {
    XCTAssertEqual(
      importError(["amplitude-song-played.json"]),
      "amplitude-song-played.json:1:1: error: a JSON Schema export does not say which provider receives its calls: pass --provider ID (amplitude, mixpanel, segment…)"
    )
  }

  func testAListOfSchemasNeedsTitles() {
    XCTAssertThrowsError(
      try importText(
        #"[{"title": "A", "properties": {}}, {"properties": {"x": {}}}]"#, format: .jsonschema, provider: "x")
    ) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        "plan.json:1:36: error: the event schema [1] has no name (title)")
    }
  }
}
