import AnalyticsHub
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Snowplow's official Python tracker (`scripts/sdk-clients/snowplow_plan_client.py`) sends to a
/// real `listen`; its records are checked against the plan imported from the Iglu Central excerpt
/// (`Tests/TaggingPlanImportTests/Fixtures/iglu-central`): page view, page ping, structured event,
/// mobile screen view and self-describing events are all planned, and exactly the broken
/// `add_to_cart` is flagged.
final class SnowplowPlanListenTests: XCTestCase {
  private let excerpt = packageRoot.appendingPathComponent(
    "Tests/TaggingPlanImportTests/Fixtures/iglu-central"
  )
  .path

  func testOnlyTheBrokenSelfDescribingEventIsFlagged() async throws {
    let imported = try PlanImporter.run(paths: [excerpt], options: ImportOptions(format: .iglu))
    let plan = try PlanLoader.load(yaml: imported.yaml, file: "iglu-central.yaml")
    let (server, collector) = try await startServer()
    let result = try runSDKClient("snowplow_plan_client", port: server.port)
    let records = collector.waitForRecords(6)
    try await server.shutdown()
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertEqual(
      records.map { "\($0.kind.rawValue) \($0.name)" },
      [
        "screen Cart", "event add_to_cart", "event add_to_cart", "screen Cart", "event open",
        "event page_ping",
      ])
    guard records.count == 6 else { return }
    var validator = PlanValidator(plan: plan)
    let found = records.map { validator.validate($0).filter { $0.provider == "snowplow" } }
    XCTAssertEqual(found[0].map(\.message), [])
    XCTAssertEqual(found[1].map(\.message), [])
    XCTAssertEqual(Set(found[2].map(\.rule)), [.invalidValue], "\(found[2].map(\.message))")
    XCTAssertEqual(found[2].count, 2, "\(found[2].map(\.message))")
    XCTAssertTrue(
      found[2].contains { $0.message.contains("unstruct_event.data.data.quantity") },
      "\(found[2].map(\.message))")
    XCTAssertTrue(
      found[2].contains { $0.message.contains("unstruct_event.data.data.item_type") },
      "\(found[2].map(\.message))")
    for index in 3..<6 { XCTAssertEqual(found[index].map(\.message), [], "record \(index)") }
    XCTAssertEqual(
      records[1].outputs.first?.calls.first?.name, "iglu:io.snowplow.ecomm/add_to_cart/jsonschema/1-0-0")
  }
}
