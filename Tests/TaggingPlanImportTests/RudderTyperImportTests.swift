import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// RudderTyper's `plan.json` (Fixtures/rudderstack-typer, rudderlabs/rudder-typer's example
/// plans): both shapes import as RudderStack's, and the plan judges RudderStack's messages. The
/// 2022 shape was read as Segment's (the catalogue then judged no RudderStack call: every
/// planted mistake passed); the current one, with unnamed identify, page, screen and group
/// rules, failed the import.
final class RudderTyperImportTests: XCTestCase {
  /// The violations of RudderStack calls: an SDK message as `listen` records it (the whole
  /// message: `properties`, `traits`) or, with `inApp`, an in-app call.
  private func judge(_ imported: ImportedPlan, _ calls: [(CallDescription, inApp: Bool)]) throws -> [String] {
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml"))
    return calls.enumerated().flatMap { index, call in
      let record = Record(
        seq: UInt64(index + 1), time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event,
        name: call.0.name ?? call.0.method,
        outputs: [ProviderOutput(provider: "rudderstack", status: .sent, calls: [call.0])],
        raw: call.inApp ? nil : "{}")
      return validator.validate(record).map {
        "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])"
      }
    }
  }

  /// A message RudderStack's SDKs send (`rudder-sdk-python`'s `track`, `identify`, `page`).
  private func message(_ type: String, _ name: String?, _ field: String, _ values: Properties)
    -> (CallDescription, inApp: Bool)
  {
    var message: Properties = [
      "type": .string(type), "userId": "u-1", "messageId": "m-1", "channel": "server",
      field: .object(values),
    ]
    if let name { message[type == "track" ? "event" : "name"] = .string(name) }
    return (CallDescription(method: type, name: type == "track" ? name : nil, parameters: message), false)
  }

  func testThe2022ShapeImportsAsRudderStackAndFlagsEveryPlantedMistake() throws {
    let plan = try importFixtures(["rudderstack-typer/plan-2022-ecommerce.json"])
    XCTAssertEqual(plan.format, .rudderstack)
    XCTAssertEqual(plan.name, "Ecommerce Spec")
    XCTAssertEqual(plan.catalogue.provider, "rudderstack")
    XCTAssertEqual(plan.catalogue.propertiesAt, "properties")
    XCTAssertEqual(
      plan.catalogue.calls.map(\.key), ["Order Purchased", "Product List Viewed", "Product Added"])
    XCTAssertEqual(importerWarnings(plan), [])
    let details: PropertyValue = [
      "product_id": "p-1", "sku": "s-1", "category": "shoes", "name": "Runner", "price": 59.9, "position": 1,
      "url": "https://example.com/p-1", "image_url": "https://example.com/p-1.png",
    ]
    let added: Properties = ["list_id": "l-1", "category": "shoes", "details": details]
    let records = [
      message("track", "Product Added", "properties", added),
      message("track", "Product Added", "properties", ["category": "shoes"]),
      message("track", "Product Added", "properties", ["list_id": "l-1", "category": 7]),
      message("track", "Order Purchased", "properties", ["products": "shoes"]),
      message("track", "Product Removed", "properties", ["list_id": "l-1"]),
      message("identify", nil, "traits", ["email": "a@example.com"]),
      (CallDescription(method: "track", name: "Product Added", parameters: added), true),
      (CallDescription(method: "track", name: "Product Added", parameters: ["category": "shoes"]), true),
    ]
    XCTAssertEqual(
      try judge(plan, records),
      [
        "2 missing-param Product Added: rudderstack track Product Added parameter properties.list_id is missing",
        "3 wrong-type Product Added: rudderstack track Product Added parameter properties.category is an integer (7)",
        #"4 wrong-type Order Purchased: rudderstack track Order Purchased parameter properties.products is a string ("shoes")"#,
        "5 unplanned-call Product Removed: rudderstack got track Product Removed, which the rudderstack catalogue (plan line 12) does not list",
        "6 personal-data identify: rudderstack identify parameter traits.email carries an email address "
          + "(outputs[0].calls[0].parameters.traits.email, value masked, 13 characters); "
          + "mark the property pii: [email] where it is intended",
        "8 missing-param Product Added: rudderstack track Product Added parameter list_id is missing",
      ])
  }

  func testTheCurrentShapesUnnamedRulesImportAsTheirMethods() throws {
    let plan = try importFixtures(["rudderstack-typer/plan-2024-event-types.json"])
    XCTAssertEqual(plan.format, .rudderstack)
    XCTAssertEqual(plan.name, "Sample tracking plan 1")
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Sample event 1"])
    XCTAssertEqual(
      plan.catalogue.methods.map {
        "\($0.key) \($0.propertiesAt ?? "-") \($0.origin == nil ? "added" : "rule")"
      },
      [
        "identify traits rule", "page - rule", "screen - rule", "group traits rule", "alias - added",
      ])
    XCTAssertEqual(importerWarnings(plan), [])
    let records = [
      message("identify", nil, "traits", ["Sample property 1": "x"]),
      message("identify", nil, "traits", ["email": "a@example.com"]),
      message("page", "Home", "properties", ["Sample property 1": "x"]),
      message("group", nil, "traits", ["plan": "pro"]),
      message("track", "Sample event 1", "properties", ["Sample property 1": 1, "other": true]),
    ]
    XCTAssertEqual(
      try judge(plan, records),
      [
        "2 personal-data identify: rudderstack identify parameter traits.email carries an email address "
          + "(outputs[0].calls[0].parameters.traits.email, value masked, 13 characters); "
          + "mark the property pii: [email] where it is intended",
        "2 unexpected-property identify: rudderstack identify parameter traits.email is not planned",
        "4 unexpected-property group: rudderstack group parameter traits.plan is not planned",
        "5 unexpected-property Sample event 1: rudderstack track Sample event 1 parameter properties.other is not planned",
      ])
  }

  /// RudderTyper keeps `plan.json` in the directory its config names (`analytics/`, with the
  /// generated code): `--from rudderstack analytics/` reads it (the directory's YAML files only
  /// were read, so there was no file to import); a rudder-cli project's YAML files still win.
  func testADirectoryWithRudderTypersPlanImportsWithFromRudderStack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typer-\(UUID().uuidString)")
    let analytics = folder.appendingPathComponent("analytics")
    try FileManager.default.createDirectory(at: analytics, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      atPath: fixture("rudderstack-typer/plan-2022-ecommerce.json"),
      toPath: analytics.appendingPathComponent("plan.json").path)
    try "export const track = () => {}\n".write(
      to: analytics.appendingPathComponent("index.js"), atomically: true, encoding: .utf8)
    let plan = loadChecked(
      try PlanImporter.run(paths: [analytics.path], options: ImportOptions(format: .rudderstack)))
    XCTAssertEqual(plan.sources, [analytics.appendingPathComponent("plan.json").path])
    XCTAssertEqual(plan.catalogue.calls.count, 3)
    let project = try importFixtures(["rudderstack-real/v1"], options: ImportOptions(format: .rudderstack))
    XCTAssertTrue(project.sources.allSatisfy { $0.hasSuffix(".yaml") }, "\(project.sources)")
  }

  /// A rule of another type (RudderStack has none, but a newer RudderTyper might) is said and
  /// left out; the others import.
  func testAnUnknownEventTypeIsAWarningWithItsPlace() throws {
    let text = #"""
      {"id": "tp_1", "name": "P", "rules": {"events": [
        {"eventType": "alias", "name": "", "rules": {}},
        {"eventType": "track", "name": "Played", "rules": {}}]}}
      """#
    let plan = try importText(text, format: .rudderstack)
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Played"])
    XCTAssertEqual(
      importerWarnings(plan).map(\.description),
      [
        "plan.json:2:4: warning: the event type alias (rules.events[0].eventType) is not imported: track, identify, group, page and screen are"
      ])
  }
}
