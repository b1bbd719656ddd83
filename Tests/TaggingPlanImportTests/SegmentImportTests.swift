import TaggingPlan
import TaggingPlanImport
import XCTest

final class SegmentImportTests: XCTestCase {
  func testConfigAPITrackingPlanImportsAsTheGoldenYAML() throws {
    let plan = try importFixtures(["segment-config-api.json"])
    XCTAssertEqual(plan.format, .segment)
    XCTAssertEqual(plan.name, "Kicks App")
    try assertGolden(plan, "segment-config-api.yaml")
  }

  func testConfigAPIWarningsNameTheirPlace() throws {
    let plan = try importFixtures(["segment-config-api.json"])
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        #"segment-config-api.json:30:7: warning: track "Order Completed" has versions 1, 2 (rules.events[1]): version 2 is imported, Tagscope does not tell versions apart"#
      ])
  }

  func testTheHighestVersionIsKeptAndRefsAreResolvedInTheRulesSchema() throws {
    let plan = try importFixtures(["segment-config-api.json"])
    let order = try XCTUnwrap(plan.catalogue.calls.first { $0.key == "Order Completed" })
    XCTAssertEqual(order.method, "track")
    XCTAssertEqual(order.description, "Who bought what, with the products")
    XCTAssertNil(order.propertiesAt, "the catalogue's propertiesAt: properties")
    XCTAssertFalse(order.additionalProperties)
    let total = try XCTUnwrap(order.params.first { $0.name == "total" }?.constraints)
    XCTAssertEqual(total.types, [.number])
    XCTAssertEqual(total.minimum, 0)
    XCTAssertTrue(total.required)
    let price = try XCTUnwrap(
      order.params.first { $0.name == "products" }?.constraints.items?.properties?.first?.constraints)
    XCTAssertEqual(price.minimum, 0)
    XCTAssertTrue(price.required)
  }

  func testIdentifyAndGroupRulesCheckTraitsAndTheOthersProperties() throws {
    let plan = try importFixtures(["segment-config-api.json"])
    XCTAssertEqual(plan.catalogue.propertiesAt, "properties")
    XCTAssertEqual(plan.catalogue.methods.map(\.key), ["identify", "group", "page", "screen", "alias"])
    XCTAssertEqual(
      plan.catalogue.methods.map { $0.propertiesAt ?? "-" }, ["traits", "traits", "-", "-", "-"])
    let identify = plan.catalogue.methods[0]
    XCTAssertEqual(identify.params.map(\.name), ["occupation", "age", "name"])
    XCTAssertEqual(identify.params.last?.constraints.required, true)
    XCTAssertEqual(plan.catalogue.methods[1].params.map(\.name), ["company"])
    XCTAssertTrue(plan.yaml.contains("    propertiesAt: properties\n"), plan.yaml)
  }

  func testPublicAPIRules() throws {
    let plan = try importFixtures(["segment-public-api-rules.json"])
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Product Viewed", "Home"])
    XCTAssertEqual(plan.catalogue.calls.map(\.method), ["track", "page"])
    XCTAssertEqual(plan.catalogue.methods.map(\.key), ["identify", "group", "page", "screen", "alias"])
    let viewed = plan.catalogue.calls[0].params
    XCTAssertEqual(viewed.map(\.name), ["product_id", "price", "category"])
    XCTAssertEqual(viewed.last?.constraints.types, [.string, .null])
    XCTAssertEqual(relativeWarnings(plan), [], "context is checked (messageParams)")
    XCTAssertEqual(plan.catalogue.calls[0].messageParams.map(\.name), ["context"])
    XCTAssertEqual(plan.name, "segment-public-api-rules (imported)")
  }

  func testABareListOfRulesIsAccepted() throws {
    let plan = try importText(
      #"[{"type": "TRACK", "key": "Signed Up", "version": 1, "jsonSchema": {"properties": {"properties": {"required": ["plan"]}}}}]"#,
      format: .segment)
    XCTAssertEqual(plan.catalogue.calls.first?.key, "Signed Up")
    XCTAssertEqual(plan.catalogue.calls.first?.params.first?.name, "plan")
  }

  func testAnEventWithoutANameIsAnError() {
    XCTAssertEqual(
      importError(["segment-missing-name.json"], options: ImportOptions(format: .segment)),
      "segment-missing-name.json:6:7: error: the event rules.events[1] has no name")
  }

  func testInvalidJSONIsAnErrorWithItsPlace() {
    XCTAssertEqual(
      importError(["invalid.json"], options: ImportOptions(format: .segment)),
      #"invalid.json:5:34: error: invalid JSON: unexpected character '"', ',' or '}' expected"#)
  }

  func testThousandsOfEventsOnOneLineImportWithTheirPlaces() throws {
    // One long line with multi-byte characters: columns are found without rescanning the line.
    let rules = (0..<4000).map { index in
      #"{"type": "TRACK", "key": "Écouté \#(index)", "version": 1, "jsonSchema": {"properties": {"#
        + #""properties": {"properties": {"durée": {"type": "number", "$dynamicRef": "meta.json"}}}}}}"#
    }
    let text = "[" + rules.joined(separator: ", ") + "]"
    let plan = try importText(text, format: .segment)
    XCTAssertEqual(plan.catalogue.calls.count, 4000)
    XCTAssertEqual(plan.catalogue.calls.last?.key, "Écouté 3999")
    let lastKey = try XCTUnwrap(text.range(of: #""$dynamicRef""#, options: .backwards))
    let column = text.unicodeScalars[..<lastKey.lowerBound].count + 1
    XCTAssertEqual(importerWarnings(plan).count, 4000)
    XCTAssertEqual(importerWarnings(plan).last?.location, SourceLocation(line: 1, column: column))
  }

  func testAFileOfAnotherShapeIsAnError() {
    XCTAssertThrowsError(try importText(#"{"hello": "world"}"#, format: .segment)) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        #"plan.json:1:1: error: not a Segment tracking plan: expected "rules" (Config API), "data.rules" (Public API), a list of rules or a rules object (global, events, identify, group)"#
      )
    }
  }
}
