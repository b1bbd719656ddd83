import TaggingPlan
import TaggingPlanImport
import XCTest

final class RudderStackImportTests: XCTestCase {
  func testAProjectDirectoryImportsAsTheGoldenYAML() throws {
    let plan = try importFixtures(["rudderstack"])
    XCTAssertEqual(plan.format, .rudderstack)
    XCTAssertEqual(plan.name, "Product Tracking Plan")
    try assertGolden(plan, "rudderstack.yaml")
    XCTAssertEqual(relativeWarnings(plan), [], "multipleOf is checked")
  }

  func testCustomTypesAndRuleOptionsAreCarried() throws {
    let plan = try importFixtures(["rudderstack"])
    let viewed = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(viewed.key, "Product Viewed")
    let properties = try XCTUnwrap(viewed.params.first { $0.name == "properties" }?.constraints)
    XCTAssertEqual(properties.additionalProperties, false)  // allow_unplanned: false
    let address = try XCTUnwrap(properties.properties?.first { $0.name == "address" }?.constraints)
    XCTAssertEqual(address.types, [.object])
    XCTAssertEqual(address.properties?.map(\.name), ["street", "city"])
    XCTAssertEqual(address.properties?.first?.constraints.required, true)
    let identify = try XCTUnwrap(plan.catalogue.methods.first { $0.key == "identify" })
    XCTAssertEqual(identify.params.first?.name, "traits")
  }

  func testAnAliasBombInATrackingPlanFailsWhereItExpandsPastTheBudget() throws {
    var lines = [
      "version: rudder/v1", "kind: tracking-plan", "metadata: {name: tp}", "spec:", "  display_name: Bomb",
      "  x0: &a0 [\(Array(repeating: "x", count: 10).joined(separator: ", "))]",
    ]
    for level in 1..<7 {
      let aliases = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
      lines.append("  x\(level): &a\(level) [\(aliases)]")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("tp.yaml").path
    try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    XCTAssertThrowsError(try PlanImporter.run(paths: [path], options: ImportOptions(format: .rudderstack))) {
      error in
      // Ten million nodes once expanded; level 3 (line 9) already goes past the 10 000-node budget.
      XCTAssertEqual(
        (error as? ImportError)?.description,
        "\(path):9:7: error: YAML aliases expand the document past 10000 nodes: too many aliases of aliases")
    }
  }

  func testVersion1SpecsWithURNsAndSnakeCaseConfig() throws {
    let files = [
      (
        "events.yaml",
        """
        version: rudder/v1
        kind: events
        metadata: {name: my-events}
        spec:
          events:
            - {id: signup, event_type: track, name: Signed Up}
        """
      ),
      (
        "properties.yaml",
        """
        version: rudder/v1
        kind: properties
        metadata: {name: my-properties}
        spec:
          properties:
            - id: user_email
              name: email
              type: string
              config: {format: email, min_length: 5, max_length: 100}
            - id: plans
              name: plans
              type: array
              item_type: string
        """
      ),
      (
        "tp.yaml",
        """
        version: rudder/v1
        kind: tracking-plan
        metadata: {name: my-tracking-plan}
        spec:
          id: my_tp
          display_name: My Tracking Plan
          rules:
            - id: signup_rule
              type: event_rule
              event: "#event:signup"
              additional_properties: false
              properties:
                - property: "#property:user_email"
                  required: true
                - property: "#property:plans"
        """
      ),
    ]
    let documents = try files.map { name, text throws(ImportError) in
      SourceDocument(file: name, root: try DocumentReader.parse(text, file: name))
    }
    let plan = try PlanImporter.run(documents: documents, format: .rudderstack)
    XCTAssertEqual(plan.name, "My Tracking Plan")
    XCTAssertEqual(importerWarnings(plan), [])
    let yaml = plan.yaml
    XCTAssertTrue(
      yaml.contains(
        """
              # tp.yaml:8:7 spec.rules[0] "Signed Up" (signup_rule)
              Signed Up:
                method: track
                additionalProperties: true
                params:
                  properties:
                    type: object
                    required: true
                    additionalProperties: false
                    properties:
                      email: {type: string, required: true, format: email, minLength: 5, maxLength: 100}
                      plans:
                        type: array
                        items: {type: string}

        """), yaml)
  }

  func testAReferenceToAPropertyNotGivenIsAnError() {
    XCTAssertEqual(
      importError(["rudderstack/tracking-plan.yaml", "rudderstack/events.yaml"]),
      "rudderstack/tracking-plan.yaml:16:11: error: #/properties/myproperties/product_sku is not defined in the given files (pass its properties file)"
    )
  }

  func testWithoutATrackingPlanIsAnError() {
    XCTAssertEqual(
      importError(["rudderstack/events.yaml"]),
      "rudderstack/events.yaml:1:1: error: no tracking plan (kind: tp or kind: tracking-plan) among the files"
    )
  }
}
