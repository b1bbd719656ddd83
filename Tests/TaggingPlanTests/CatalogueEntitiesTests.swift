import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// `entitiesAt` and versioned call names, in a hand-written catalogue: each `{schema, data}`
/// entity is checked against the entry its schema names; a SchemaVer the catalogue lacks falls
/// back to the newest version of that name, and says so.
final class CatalogueEntitiesTests: XCTestCase {
  static let yaml = """
    plan: Shop
    catalogues:
      snowplow:
        propertiesAt: event.data
        entitiesAt: entities
        calls:
          "iglu:com.acme/cart/jsonschema/1-0-0": {params: {sku: {type: string, required: true}}}
          "iglu:com.acme/cart/jsonschema/1-1-0":
            additionalProperties: false
            params: {sku: {type: string, required: true}, size: {type: integer}}
          "iglu:com.acme/user/jsonschema/1-0-0": {params: {id: {type: string, required: true}}}
    """

  private func record(_ seq: UInt64, name: String, _ message: Properties) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: "cart",
      outputs: [
        ProviderOutput(
          provider: "snowplow", status: .sent,
          calls: [CallDescription(method: "trackSelfDescribingEvent", name: name, parameters: message)])
      ], raw: "{}")
  }

  func testEntitiesAreCheckedAgainstTheEntryTheirSchemaNames() throws {
    let plan = try PlanLoader.load(yaml: Self.yaml, file: "shop.yaml")
    let message: Properties = [
      "event": ["data": ["sku": "A-1"]],
      "entities": [
        ["schema": "iglu:com.acme/user/jsonschema/1-0-0", "data": ["id": 7]],
        ["schema": "iglu:com.acme/user/jsonschema/1-0-0", "data": ["id": "u-1"]],
        "not an entity",
      ],
    ]
    var coverage = Coverage(items: plan.coverageItems)
    let found = PlanValidator.check(
      record(1, name: "iglu:com.acme/cart/jsonschema/1-0-0", message), plan: plan, coverage: &coverage)
    XCTAssertEqual(found.map(\.rule), [.wrongType, .wrongType], "\(found.map(\.message))")
    guard found.count == 2 else { return }
    XCTAssertTrue(
      found[0].message.contains(
        "entity iglu:com.acme/user/jsonschema/1-0-0 parameter entities[iglu:com.acme/user/jsonschema/1-0-0].id"
      ),
      found[0].message)
    XCTAssertTrue(found[1].message.contains("entity entities[2] is a string"), found[1].message)
    XCTAssertEqual(
      coverage.items.indices.filter { coverage.isSeen($0) }.map { coverage.items[$0].tag },
      ["iglu:com.acme/cart/jsonschema/1-0-0", "iglu:com.acme/user/jsonschema/1-0-0"])
  }

  func testAVersionTheCatalogueLacksIsCheckedByTheNewestOfItsName() throws {
    let plan = try PlanLoader.load(yaml: Self.yaml, file: "shop.yaml")
    var validator = PlanValidator(plan: plan)
    let newer = validator.validate(
      record(1, name: "iglu:com.acme/cart/jsonschema/1-2-0", ["event": ["data": ["sku": "A-1", "x": 1]]]))
    XCTAssertEqual(newer.map(\.rule), [.unexpectedProperty])
    XCTAssertTrue(
      newer.first?.message.contains(
        "iglu:com.acme/cart/jsonschema/1-2-0 (not in the catalogue: checked against iglu:com.acme/cart/jsonschema/1-1-0, the newest version it has) parameter event.data.x"
      ) ?? false, "\(newer.map(\.message))")
    let named = validator.validate(
      record(2, name: "iglu:com.acme/cart/jsonschema/1-0-0", ["event": ["data": ["sku": "A-1", "x": 1]]]))
    XCTAssertEqual(named.map(\.message), [])
    let otherName = validator.validate(
      record(3, name: "iglu:com.acme/checkout/jsonschema/1-0-0", ["event": ["data": [:]]]))
    XCTAssertEqual(otherName.map(\.rule), [.unplannedCall])
  }
}
