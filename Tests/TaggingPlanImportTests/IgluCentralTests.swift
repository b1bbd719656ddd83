import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// The plan imported from 31 real Iglu Central schemas (`Fixtures/iglu-central`, its README names
/// the commit) judges Snowplow traffic of the shape `listen` records as the schemas' authors
/// meant: by vendor, name and version, built-in events planned, context entities checked.
final class IgluCentralTests: XCTestCase {
  private func plan() throws -> Plan {
    try PlanLoader.load(yaml: try importFixtures(["iglu-central"]).yaml, file: "iglu-central.yaml")
  }

  /// A message as `listen` records it from a tracker: `e`, the event's `unstruct_event` when it
  /// has a schema, and the `contexts` entities.
  private func record(
    _ seq: UInt64, method: String, name: String, schema: String? = nil, data: Properties = [:],
    fields: Properties = [:], entities: [(String, Properties)] = []
  ) -> Record {
    var parameters = fields
    if let schema {
      parameters["e"] = "ue"
      parameters["unstruct_event"] = [
        "schema": "iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0",
        "data": ["schema": .string(schema), "data": .object(data)],
      ]
    }
    if !entities.isEmpty {
      parameters["contexts"] = [
        "schema": "iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-1",
        "data": .array(entities.map { .object(["schema": .string($0.0), "data": .object($0.1)]) }),
      ]
    }
    let call = CallDescription(method: method, name: schema ?? name, parameters: parameters)
    return Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: name,
      outputs: [ProviderOutput(provider: "snowplow", status: .sent, calls: [call])], raw: "{}")
  }

  private func messages(_ plan: Plan, _ record: Record) -> [String] {
    var validator = PlanValidator(plan: plan)
    return validator.validate(record).filter { $0.provider == "snowplow" }.map(\.message)
  }

  func testTheExcerptImportsWholeOneEntryPerVendorNameAndVersion() throws {
    let imported = try importFixtures(["iglu-central"])
    XCTAssertEqual(imported.sources.count, 31)
    XCTAssertEqual(imported.catalogue.calls.count, 31)
    XCTAssertEqual(Set(imported.catalogue.calls.map(\.key)).count, 31)
    XCTAssertFalse(
      importerWarnings(imported).contains { $0.message.contains("left out") }, "\(importerWarnings(imported))"
    )
    let carts = imported.catalogue.calls.map(\.key).filter { $0.contains("/add_to_cart/") }
    XCTAssertEqual(
      carts,
      [
        "iglu:com.google.tag-manager.server-side/add_to_cart/jsonschema/1-0-0",
        "iglu:com.snowplowanalytics.snowplow/add_to_cart/jsonschema/1-0-0",
        "iglu:io.snowplow.ecomm/add_to_cart/jsonschema/1-0-0",
      ])
    XCTAssertEqual(try plan().catalogues.first?.entries.count, 34)
  }

  /// A real `io.snowplow.ecomm/add_to_cart` (the shape of snowplow's ecommerce plugin) is checked
  /// against its own schema, not Google Tag Manager's of the same name.
  func testAnEcommAddToCartIsCheckedAgainstItsOwnVendorsSchema() throws {
    let plan = try plan()
    let schema = "iglu:io.snowplow.ecomm/add_to_cart/jsonschema/1-0-0"
    let good: Properties = [
      "item_id": "sku-1", "item_type": "product", "quantity": 2, "cart_id": "cart-9", "source": .null,
    ]
    XCTAssertEqual(
      messages(
        plan, record(1, method: "trackSelfDescribingEvent", name: "add_to_cart", schema: schema, data: good)),
      [])
    var bad = good
    bad["quantity"] = 0
    let found = messages(
      plan, record(2, method: "trackSelfDescribingEvent", name: "add_to_cart", schema: schema, data: bad))
    XCTAssertEqual(found.count, 1, "\(found)")
    XCTAssertTrue(
      found.first?.contains("\(schema) parameter unstruct_event.data.data.quantity") ?? false, "\(found)")
  }

  /// Page views, pings, structured events (planned as methods: Iglu Central has no schema for
  /// them), the mobile screen view (its record is named after the screen) and the application
  /// lifecycle events are planned.
  func testTheTrackersOwnEventsArePlanned() throws {
    let plan = try plan()
    let records = [
      record(
        1, method: "trackPageView", name: "Cart", fields: ["e": "pv", "url": "https://shop.example/cart"]),
      record(
        2, method: "trackPagePing", name: "page_ping", fields: ["e": "pp", "url": "https://shop.example"]),
      record(
        3, method: "trackStructEvent", name: "open", fields: ["e": "se", "se_ca": "cart", "se_ac": "open"]),
      record(
        4, method: "trackSelfDescribingEvent", name: "Cart",
        schema: "iglu:com.snowplowanalytics.mobile/screen_view/jsonschema/1-0-0",
        data: ["name": "Cart", "id": "5d79770b-015b-4af8-8c91-b2ed6faf4b1e"]),
      record(
        5, method: "trackSelfDescribingEvent", name: "application_install",
        schema: "iglu:com.snowplowanalytics.mobile/application_install/jsonschema/1-0-0"),
      record(
        6, method: "trackSelfDescribingEvent", name: "application_foreground",
        schema: "iglu:com.snowplowanalytics.snowplow/application_foreground/jsonschema/1-0-0",
        data: ["foregroundIndex": 3]),
      record(
        7, method: "trackSelfDescribingEvent", name: "application_background",
        schema: "iglu:com.snowplowanalytics.snowplow/application_background/jsonschema/1-0-0",
        data: ["backgroundIndex": 2]),
    ]
    for record in records { XCTAssertEqual(messages(plan, record), [], "record \(record.seq)") }
    let pageWithoutURL = record(8, method: "trackPageView", name: "Cart", fields: ["e": "pv"])
    XCTAssertEqual(messages(plan, pageWithoutURL).count, 1)
  }

  /// Each context entity is checked against the version its schema names (client_session 1-0-1
  /// has no `eventIndex`, 1-0-2 does), a version the registry lacks against the newest (and the
  /// message says so), an unknown schema is unplanned; each entity's entry is covered.
  func testContextEntitiesAreCheckedAgainstTheirOwnSchemaVersion() throws {
    let plan = try plan()
    let session: Properties = [
      "userId": "0f8fad5b-d9cb-469f-a165-70867728950e", "sessionId": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      "sessionIndex": 3, "previousSessionId": "16fd2706-8baf-433b-82eb-8c7fada847da",
      "storageMechanism": "SQLITE", "eventIndex": 12,
    ]
    let device: Properties = [
      "osType": "ios", "osVersion": "17.2", "deviceManufacturer": "Apple", "deviceModel": .int(15),
    ]
    let event = record(
      1, method: "trackSelfDescribingEvent", name: "application_install",
      schema: "iglu:com.snowplowanalytics.mobile/application_install/jsonschema/1-0-0",
      entities: [
        ("iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2", session),
        ("iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-1", session),
        ("iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-9", device),
        ("iglu:com.example/unknown/jsonschema/1-0-0", [:]),
      ])
    var coverage = Coverage(items: plan.coverageItems)
    let found = PlanValidator.check(event, plan: plan, coverage: &coverage)
    XCTAssertEqual(
      found.map(\.rule), [.unexpectedProperty, .wrongType, .unplannedCall], "\(found.map(\.message))")
    guard found.count == 3 else { return }
    XCTAssertTrue(
      found[0].message.contains(
        "parameter contexts.data[iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-1].eventIndex"
      ),
      found[0].message)
    XCTAssertTrue(
      found[1].message.contains(
        "entity iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-9 (not in the catalogue: checked against iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-3, the newest version it has) parameter contexts.data[iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-9].deviceModel"
      ), found[1].message)
    XCTAssertTrue(found[2].message.contains("iglu:com.example/unknown/jsonschema/1-0-0"), found[2].message)
    let seen = coverage.items.indices.filter { coverage.isSeen($0) }.map { coverage.items[$0].tag }
    XCTAssertEqual(
      Set(seen),
      [
        "iglu:com.snowplowanalytics.mobile/application_install/jsonschema/1-0-0",
        "iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-1",
        "iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2",
        "iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-3",
      ])
  }
}
