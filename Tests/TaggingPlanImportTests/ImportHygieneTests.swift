import Foundation
import TaggingPlan
import TaggingPlanImport
import XCTest

/// What every import does whatever the format: it never writes a plan that does not load, never
/// drops input silently, and keeps its comments and names as the source has them.
final class ImportHygieneTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "import-hygiene-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Writes `count` one-event JSON Schema files into `folder` of the temporary directory.
  private func eventFiles(_ count: Int, in folder: String) throws -> String {
    let path = directory.appendingPathComponent(folder)
    try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
    for index in 0..<count {
      let schema =
        #"{"title": "Event \#(index)", "type": "object", "properties": {"n": {"type": "integer"}}}"#
      try schema.write(
        to: path.appendingPathComponent(String(format: "event-%02d.json", index)), atomically: true,
        encoding: .utf8)
    }
    return path.path
  }

  func testAnEmptyPropertyNameIsLeftOutWithItsPlaceAndThePlanLoads() throws {
    let text = """
      [{"type": "TRACK", "key": "Song Played", "version": 1, "jsonSchema": {"properties": {"properties": {
        "properties": {"": {"type": "string"}, "song": {"type": "object", "properties": {"": {}, "id": {"type": "string"}}}}
      }}}}]
      """
    let plan = try importText(text, format: .segment)
    let entry = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(entry.params.map(\.name), ["song"])
    XCTAssertEqual(entry.params.first?.constraints.properties?.map(\.name), ["id"])
    XCTAssertEqual(
      importerWarnings(plan).map(\.description),
      [
        #"plan.json:1:2: warning: an empty property name (params of track "Song Played", [0]) is refused by the plan format: left out"#,
        #"plan.json:1:2: warning: an empty property name in song (params of track "Song Played", [0]) is refused by the plan format: left out"#,
      ])
    XCTAssertNoThrow(try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml"))
  }

  func testAnEmptyTraitNameOfACommonRuleIsWarnedOnTheMethodsItReaches() throws {
    let text = """
      [{"type": "TRACK", "key": "A", "jsonSchema": {}},
       {"type": "COMMON", "jsonSchema": {"properties": {"traits": {"properties": {"": {"type": "string"}}}}}}]
      """
    let plan = try importText(text, format: .segment)
    XCTAssertEqual(
      importerWarnings(plan).map(\.description),
      [
        #"plan.json:1:1: warning: an empty property name (params of "identify", (root)) is refused by the plan format: left out"#,
        #"plan.json:1:1: warning: an empty property name (params of "group", (root)) is refused by the plan format: left out"#,
      ])
  }

  func testARepeatedKeyIsAWarningOfTheImportListedInTheYAML() throws {
    let text = """
      {"data": {"rules": [{"type": "TRACK", "key": "Signed Up", "version": 1,
        "jsonSchema": {"properties": {"properties": {"properties": {"plan": {"type": "string"}, "plan": {"type": "integer"}}}}}}]}}
      """
    let plan = try importText(text, format: .segment)
    XCTAssertEqual(
      plan.catalogue.calls.first?.params.first?.constraints.types, [.integer], "the last value kept")
    let warning =
      #"plan.json:2:91: warning: the key "plan" is repeated (data.rules[0].jsonSchema.properties.properties.properties.plan), first at 2:63: this last value is kept"#
    XCTAssertEqual(importerWarnings(plan).map(\.description), [warning])
    XCTAssertTrue(plan.yaml.contains("#   " + warning), plan.yaml)
  }

  func testARepeatedKeyInOneSchemaOfARegistryDoesNotStopTheOthers() throws {
    // Iglu Central holds one such file; every other schema of the tree must still import.
    let root = directory.appendingPathComponent("schemas")
    for (name, body) in [
      (
        "click",
        #"{"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": false}"#
      ),
      (
        "scroll",
        #"{"type": "object", "properties": {"depth": {"type": "integer"}, "depth": {"type": "number"}}}"#
      ),
    ] {
      let folder = root.appendingPathComponent("com.acme/\(name)/jsonschema")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let schema =
        #"{"$schema": "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#", "#
        + #""self": {"vendor": "com.acme", "name": "\#(name)", "format": "jsonschema", "version": "1-0-0"}, "#
        + body.dropFirst()
      try schema.write(to: folder.appendingPathComponent("1-0-0"), atomically: true, encoding: .utf8)
    }
    let plan = loadChecked(try PlanImporter.run(paths: [root.path], options: ImportOptions(format: .iglu)))
    XCTAssertEqual(plan.catalogue.calls.count, 2)
    XCTAssertEqual(
      importerWarnings(plan).filter { $0.message.contains("repeated") }.map(\.message),
      [#"the key "depth" is repeated (properties.depth), first at 1:231: this last value is kept"#])
  }

  func testAnnotationsAreNotWarnedAbout() throws {
    let text = """
      {"rules": [{"type": "TRACK", "key": "Signed Up", "version": 1, "deprecatedAt": "0001-01-01T00:00:00.000Z",
        "jsonSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "$comment": "v2", "title": "Signed Up",
          "description": "A sign-up", "labels": {"area": "account"}, "eventMetadata": {"name": "Signed Up", "type": "TRACK"},
          "type": "object", "properties": {"plan": {"type": "string", "examples": ["pro"], "title": "Plan", "id": "/properties/plan", "key": "plan"},
          "key": {"type": "string"}}}}]}
      """
    let plan = try importText(text, format: .segment)
    XCTAssertEqual(importerWarnings(plan), [])
    XCTAssertEqual(
      plan.catalogue.calls.first?.params.map(\.name), ["plan", "key"], "a property named key stays")
    XCTAssertEqual(plan.catalogue.calls.first?.description, "A sign-up")
  }

  func testTheDefaultNameKeepsTheDotsOfAName() throws {
    let folder = try eventFiles(1, in: "com.sendgrid")
    let plan = try PlanImporter.run(
      paths: [folder], options: ImportOptions(format: .jsonschema, provider: "amplitude"))
    XCTAssertEqual(plan.name, "com.sendgrid (imported)")
    let file = try importText(
      #"[{"type": "TRACK", "key": "A", "jsonSchema": {}}]"#, file: "exports/plan.v2.json", format: .segment)
    XCTAssertEqual(file.name, "plan.v2 (imported)")
  }

  func testTheFirstCommentLineNamesAFewSourcesAndCountsTheOthers() throws {
    let folder = try eventFiles(25, in: "events")
    let plan = try PlanImporter.run(
      paths: [folder], options: ImportOptions(format: .jsonschema, provider: "amplitude"))
    XCTAssertEqual(plan.sources.count, 25)
    let first = try XCTUnwrap(plan.yaml.split(separator: "\n").first)
    XCTAssertTrue(first.hasSuffix("event-09.json and 15 more files."), String(first))
    XCTAssertLessThan(first.count, 20 * folder.count)
  }

  func testAnImportThatKeepsNoEventIsAnError() {
    XCTAssertThrowsError(try importText(#"{"rules": []}"#, format: .segment)) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        "plan.json:1:1: error: nothing imported from plan.json: it holds no event definition")
    }
  }
  /// A name the plan format refuses is taken out at every depth, inside `anyOf` too (the plan
  /// would not load, and the import failed whole): that property alone is left out, with a
  /// warning at its entry's place.
  func testAnEmptyNameInsideAnyOfIsRefusedAlone() throws {
    let schema = """
      {"title": "Song Played", "type": "object", "properties": {
        "kind": {"anyOf": [{"type": "object", "properties": {"": {"type": "string"}, "a": {}}}, {"type": "string"}]}}}
      """
    let document = try DocumentReader.document(schema, file: "song.json")
    let plan = try PlanImporter.run(
      documents: [document], format: .jsonschema, options: ImportOptions(provider: "amplitude"))
    let kind = try XCTUnwrap(plan.catalogue.calls.first?.params.first)
    XCTAssertEqual(kind.constraints.keywords?.anyOf.first?.properties?.map(\.name), ["a"])
    XCTAssertEqual(
      importerWarnings(plan).map(\.description),
      [
        #"song.json:1:1: warning: an empty property name in kind (params of "Song Played", (root)) is refused by the plan format: left out"#
      ])
  }
}
