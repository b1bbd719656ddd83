import TaggingPlan
import TaggingPlanImport
import XCTest

final class MParticleImportTests: XCTestCase {
  func testADataPlanImportsAsTheGoldenYAML() throws {
    let plan = try importFixtures(["mparticle-data-plan.json"])
    XCTAssertEqual(plan.format, .mparticle)
    XCTAssertEqual(plan.name, "Mobile Data Plan")
    try assertGolden(plan, "mparticle-data-plan.yaml")
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        "mparticle-data-plan.json:51:9: warning: the plan has versions 1, 2 (data_plan_versions[1]): only the highest is imported",
        "mparticle-data-plan.json:81:45: warning: custom_flags (data_plan_versions[1].version_document.data_points[0].validator.definition.properties.data.properties.custom_flags) is not imported: custom_attributes is",
      ])
  }

  func testOneVersionDocumentIsAccepted() throws {
    let text = """
      {"version": 3, "data_plan_id": "web", "version_document": {"data_points": [
        {"match": {"type": "custom_event", "criteria": {"event_name": "Play", "custom_event_type": "media"}},
         "validator": {"type": "json_schema", "definition": {"properties": {"data": {"properties": {
           "custom_attributes": {"properties": {"title": {"type": "string"}}, "required": ["title"]}}}}}}}]}}
      """
    let plan = try importText(text, format: .mparticle)
    XCTAssertEqual(plan.name, "web")
    let play = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(play.method, "logEvent")
    XCTAssertEqual(play.additionalProperties, true)
    XCTAssertEqual(play.params.map(\.name), ["title"])
    XCTAssertEqual(play.params.first?.constraints.required, true)
  }

  func testACustomEventWithoutANameIsAnError() {
    let text = #"{"data_points": [{"match": {"type": "custom_event", "criteria": {}}}]}"#
    XCTAssertThrowsError(try importText(text, format: .mparticle)) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        "plan.json:1:28: error: the custom_event data point data_points[0] has no criteria.event_name")
    }
  }
}
