import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

@testable import TaggingPlanImport

/// Imported plans load with `PlanLoader` and check recorded calls.
final class RoundTripTests: XCTestCase {
  private func load(_ plan: ImportedPlan) throws -> Plan {
    try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml")
  }

  /// A record of one call `provider` received, as `listen` writes it (with `raw`, the message
  /// an SDK sent) or, with `inApp`, as an in-app hub call.
  private func record(_ seq: UInt64, provider: String, _ call: CallDescription, inApp: Bool = false) -> Record
  {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: "event",
      name: call.name ?? call.method,
      outputs: [ProviderOutput(provider: provider, status: .sent, calls: [call])], raw: inApp ? nil : "{}")
  }

  private func violations(_ plan: Plan, _ records: [Record], provider: String) -> [PlanViolation] {
    var validator = PlanValidator(plan: plan)
    return records.flatMap { validator.validate($0) }.filter { $0.provider == provider }
  }

  func testEveryImportedPlanLoads() throws {
    let plans = [
      try importFixtures(["segment-config-api.json"]),
      try importFixtures(["segment-public-api-rules.json"]),
      try importFixtures(["rudderstack"]),
      try importFixtures(["iglu"]),
      try importFixtures(["mparticle-data-plan.json"]),
      try importFixtures(["avo-export.json"], options: ImportOptions(provider: "amplitude")),
      try importFixtures(
        ["amplitude-song-played.json", "events-2020-12.json"], options: ImportOptions(provider: "amplitude")),
    ]
    for imported in plans {
      let plan = try load(imported)
      XCTAssertEqual(plan.name, imported.name)
      XCTAssertEqual(plan.catalogues.count, 1)
      XCTAssertEqual(plan.catalogues.first?.provider, imported.catalogue.provider)
      XCTAssertEqual(plan.catalogues.first?.calls.count, imported.catalogue.calls.count, imported.name)
      XCTAssertEqual(plan.catalogues.first?.methods.count, imported.catalogue.methods.count, imported.name)
    }
  }

  /// The parts `plan import` checks its plan in hold every entry once, each part a plan that
  /// loads, and together the entries of the whole plan.
  func testThePartsAnImportIsCheckedInHoldEveryEntryOnce() throws {
    for imported in [
      try importFixtures(["segment-config-api.json"]), try importFixtures(["mparticle-data-plan.json"]),
      try importFixtures(["rudderstack"]),
    ] {
      let whole = try load(imported)
      var parts: [String] = []
      CatalogueWriter.eachPart(of: imported, partBytes: 300) { parts.append($0) }
      XCTAssertGreaterThan(parts.count, 2, imported.name)
      XCTAssertTrue(parts[0].hasPrefix("# Imported by"), "the first part holds the header's comments")
      var names: [String] = []
      for part in parts {
        let catalogue = try XCTUnwrap(try PlanLoader.load(yaml: part, file: "part.yaml").catalogues.first)
        names += catalogue.entries.map(\.label)
      }
      XCTAssertEqual(names, try XCTUnwrap(whole.catalogues.first).entries.map(\.label), imported.name)
    }
  }

  /// A schema nested deeper than four levels below `params` is written on one line from there
  /// on (not 150 columns of indentation on each of its lines), and loads with every constraint:
  /// a value breaking the deepest one is a violation.
  func testADeepSchemaIsWrittenInFlowStyleAndKeepsItsConstraints() throws {
    var schema = #"{"type":"string","maxLength":3}"#
    for _ in 0..<10 { schema = #"{"type":"object","properties":{"a":\#(schema)}}"# }
    let text =
      #"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Deep","#
      + #""type":"object","properties":{"a":\#(schema)}}"#
    let imported = try importText(text, format: .jsonschema, provider: "segment")
    let lines = imported.yaml.split(separator: "\n").map(String.init)
    let widest = lines.map { line in line.prefix { $0 == " " }.count }.max() ?? 0
    XCTAssertLessThanOrEqual(widest, CatalogueWriter.deepestBlockIndent + 4, imported.yaml)
    XCTAssertTrue(imported.yaml.contains("maxLength: 3"), imported.yaml)
    let plan = try load(imported)
    for (leaf, expected) in [("abc", 0), ("abcd", 1)] {
      var value = PropertyValue.string(leaf)
      for _ in 0..<10 { value = .object(["a": value]) }
      let call = CallDescription(method: "track", name: "Deep", parameters: ["a": value])
      let found = violations(plan, [record(1, provider: "segment", call, inApp: true)], provider: "segment")
      XCTAssertEqual(found.count, expected, "\(leaf): \(found)")
    }
  }

  func testSegmentCallsThatBreakTheImportedConstraintsAreViolations() throws {
    let plan = try load(try importFixtures(["segment-config-api.json"]))
    let goodProperties: Properties = [
      "order_id": "123", "total": 10.5, "currency": "EUR", "placed_at": "2026-11-24T19:05:00Z",
      "products": [["price": 10.5, "sku": "ABC-1"]],
    ]
    let good: Properties = [
      "type": "track", "event": "Order Completed", "userId": "u-1",
      "context": ["library": ["name": "analytics-swift"]], "properties": .object(goodProperties),
    ]
    let bad: Properties = [
      "type": "track", "event": "Order Completed", "userId": "u-1",
      "context": ["library": ["name": "analytics-swift"]],
      "properties": [
        "order_id": 123, "total": -1, "currency": "GBP", "placed_at": "yesterday",
        "products": [["price": 1, "sku": "ABC-1"], ["sku": "ABC-2"]], "discount": 5,
      ],
    ]
    let records = [
      record(
        1, provider: "segment", CallDescription(method: "track", name: "Order Completed", parameters: good)),
      record(
        2, provider: "segment", CallDescription(method: "track", name: "Order Completed", parameters: bad)),
      record(
        3, provider: "segment", CallDescription(method: "track", name: "Order Refunded", parameters: [:])),
      record(
        4, provider: "segment",
        CallDescription(method: "identify", name: "u-1", parameters: ["traits": ["age": 3]])),
      record(
        5, provider: "segment",
        CallDescription(method: "track", name: "Order Completed", parameters: goodProperties),
        inApp: true),
      record(
        6, provider: "segment",
        CallDescription(method: "track", name: "Order Completed", parameters: ["order_id": "1"]), inApp: true),
    ]
    let found = violations(plan, records, provider: "segment")
    XCTAssertEqual(found.filter { $0.seq == 1 }.map(\.message), [])
    let second = found.filter { $0.seq == 2 }
    XCTAssertEqual(
      Set(second.map(\.rule)), [.wrongType, .invalidValue, .missingParam, .unexpectedProperty],
      "\(second.map(\.message))")
    XCTAssertTrue(second.contains { $0.rule == .wrongType && $0.message.contains("properties.order_id") })
    XCTAssertTrue(second.contains { $0.rule == .invalidValue && $0.message.contains("properties.total") })
    XCTAssertTrue(second.contains { $0.rule == .invalidValue && $0.message.contains("properties.currency") })
    XCTAssertTrue(second.contains { $0.rule == .invalidValue && $0.message.contains("properties.placed_at") })
    XCTAssertTrue(
      second.contains { $0.rule == .missingParam && $0.message.contains("properties.products[1].price") },
      "\(second.map(\.message))")
    XCTAssertTrue(
      second.contains { $0.rule == .unexpectedProperty && $0.message.contains("properties.discount") })
    XCTAssertEqual(found.filter { $0.seq == 3 }.map(\.rule), [.unplannedCall])
    let identify = found.filter { $0.seq == 4 }
    XCTAssertEqual(Set(identify.map(\.rule)), [.missingParam], "\(identify.map(\.message))")
    XCTAssertTrue(identify.contains { $0.message.contains("traits.name") }, "\(identify.map(\.message))")
    XCTAssertEqual(
      found.filter { $0.seq == 5 }.map(\.message), [], "an in-app call's parameters are the properties")
    XCTAssertEqual(found.filter { $0.seq == 6 }.map(\.rule), [.missingParam])
  }

  func testIgluSchemasCheckTheSelfDescribingEvent() throws {
    let plan = try load(try importFixtures(["iglu"]))
    func event(_ seq: UInt64, schema: String, data: Properties) -> Record {
      let parameters: Properties = [
        "e": "ue",
        "unstruct_event": [
          "schema": "iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0",
          "data": ["schema": .string(schema), "data": .object(data)],
        ],
      ]
      let call = CallDescription(method: "trackSelfDescribingEvent", name: schema, parameters: parameters)
      return Record(
        seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: "event", name: "add_to_cart",
        outputs: [ProviderOutput(provider: "snowplow", status: .sent, calls: [call])], raw: "{}")
    }
    let records = [
      event(1, schema: "iglu:com.acme/add_to_cart/jsonschema/1-0-0", data: ["sku": "ABC", "quantity": 2]),
      event(
        2, schema: "iglu:com.acme/add_to_cart/jsonschema/2-0-0", data: ["sku": "ABC", "quantity": 0, "x": 1]),
    ]
    let found = violations(plan, records, provider: "snowplow")
    XCTAssertEqual(found.filter { $0.seq == 1 }.map(\.message), [])
    let second = found.filter { $0.seq == 2 }
    XCTAssertEqual(Set(second.map(\.rule)), [.invalidValue, .unexpectedProperty], "\(second.map(\.message))")
    XCTAssertTrue(
      second.allSatisfy {
        $0.message.contains(
          "iglu:com.acme/add_to_cart/jsonschema/2-0-0 (not in the catalogue: checked against iglu:com.acme/add_to_cart/jsonschema/1-0-1, the newest version it has)"
        )
      }, "\(second.map(\.message))")
    XCTAssertTrue(
      second.contains { $0.message.contains("unstruct_event.data.data.quantity") }, "\(second.map(\.message))"
    )
  }

  func testJSONSchemaCatalogueClosesTheCallWhenTheSchemaDoes() throws {
    let plan = try load(
      try importFixtures(["amplitude-song-played.json"], options: ImportOptions(provider: "amplitude")))
    let properties: Properties = ["song_id": "not-a-uuid", "duration": 30, "genre": "pop", "volume": 3]
    // In the app, the properties are the call's parameters; Amplitude's SDK sends them as
    // `event_properties`: one imported entry checks both the same way.
    let inApp = CallDescription(method: "track", name: "Song Played", parameters: properties)
    let fromSDK = CallDescription(
      method: "track", name: "Song Played",
      parameters: ["event_type": "Song Played", "device_id": "d-1", "event_properties": .object(properties)])
    for record in [
      record(1, provider: "amplitude", inApp, inApp: true), record(1, provider: "amplitude", fromSDK),
    ] {
      let found = violations(plan, [record], provider: "amplitude")
      XCTAssertEqual(
        found.map(\.rule).sorted { $0.rawValue < $1.rawValue },
        [.invalidValue, .invalidValue, .unexpectedProperty],
        "\(found.map(\.message))")
    }
  }
}
