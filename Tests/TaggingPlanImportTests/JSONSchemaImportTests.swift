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

  /// Per-event schemas gathered in one object by event name (how Amplitude Data's schemas end up
  /// in one file) are told from the content and import one entry per event, not one call named
  /// after the file; an object whose members are not all schemas stays one event.
  func testAnObjectOfEventSchemasByNameIsOneEntryPerEvent() throws {
    let text = """
      {"Song Played": {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Song Played",
                       "type": "object", "properties": {"duration": {"type": "integer", "maximum": 600}}},
       "Search": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
      """
    let root = try DocumentReader.parse(text, file: "schema.json")
    XCTAssertEqual(ImportFormat.detect(root), .jsonschema)
    let plan = try importText(text, file: "schema.json", format: .jsonschema, provider: "amplitude")
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Song Played", "Search"])
    XCTAssertEqual(plan.catalogue.calls[0].params.first?.constraints.maximum, 600)
    XCTAssertEqual(plan.catalogue.calls[1].params.first?.constraints.required, true)
    XCTAssertTrue(plan.yaml.contains("    propertiesAt: event_properties\n"), plan.yaml)
    let single = try importText(
      #"{"title": "One", "properties": {"a": {"type": "string"}}, "x": {"type": "object", "properties": {}}}"#,
      file: "one.json", format: .jsonschema, provider: "segment")
    XCTAssertEqual(single.catalogue.calls.map(\.key), ["One"])
    XCTAssertEqual(single.catalogue.propertiesAt, "properties")
  }
}
