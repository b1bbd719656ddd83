import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline
import XCTest

/// `listen` names a Snowplow self-describing call after its Iglu URI; people name it by the
/// schema's name: `call:add_to_cart` in the debugger, `add_to_cart` as a hand-written catalogue
/// entry or a tag's planned call, match `iglu:com.acme/add_to_cart/jsonschema/1-0-0`.
final class IgluSchemaNameTests: XCTestCase {
  private let uri = "iglu:com.acme/add_to_cart/jsonschema/1-0-0"

  private func record(_ seq: UInt64, name: String, _ data: Properties) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: "add_to_cart",
      outputs: [
        ProviderOutput(
          provider: "snowplow", status: .sent,
          calls: [
            CallDescription(
              method: "trackSelfDescribingEvent", name: name,
              parameters: ["unstruct_event": ["data": ["schema": .string(name), "data": .object(data)]]])
          ])
      ], raw: "{}")
  }

  func testTheSchemaNameOfAnIgluURI() {
    XCTAssertEqual(IgluSchemaName.of(uri), "add_to_cart")
    XCTAssertEqual(
      IgluSchemaName.of("iglu:com.snowplowanalytics.mobile/screen_view/jsonschema/1-0-0"), "screen_view")
    for text in [
      "add_to_cart", "iglu:com.acme/add_to_cart", "iglu:/add_to_cart/jsonschema/1-0-0", "iglu:a/b/c/d/e", "",
    ] {
      XCTAssertNil(IgluSchemaName.of(text), text)
    }
  }

  func testTheDebuggersCallTermMatchesTheSchemaName() throws {
    func accepts(_ text: String) throws -> Bool {
      guard case .success(let filter) = Filter.parse(text) else { throw XCTSkip("\(text) does not parse") }
      return filter.acceptsCalls(record(1, name: uri, ["sku": "A-1"]))
    }
    XCTAssertTrue(try accepts("call:add_to_cart"))
    XCTAssertTrue(try accepts("call:ADD_TO_CART"))
    XCTAssertTrue(try accepts("call:\(uri)"))
    XCTAssertTrue(try accepts("call:trackSelfDescribingEvent"))
    XCTAssertFalse(try accepts("call:add_to_car"))
    XCTAssertFalse(try accepts("call:com.acme"))
    XCTAssertFalse(try accepts("call:remove_from_cart"))
  }

  func testACatalogueEntryNamedByTheSchemaNameChecksTheCall() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: Shop
        catalogues:
          snowplow:
            propertiesAt: unstruct_event.data.data
            calls:
              add_to_cart: {params: {sku: {type: string, required: true}}}
              "iglu:com.acme/remove_from_cart/jsonschema/1-0-0": {params: {sku: {type: string}}}
              remove_from_cart: {params: {sku: {type: integer}}}
        """, file: "shop.yaml")
    var coverage = Coverage(items: plan.coverageItems)
    let good = PlanValidator.check(record(1, name: uri, ["sku": "A-1"]), plan: plan, coverage: &coverage)
    XCTAssertEqual(good.map(\.message), [])
    let bad = PlanValidator.check(record(2, name: uri, ["size": 3]), plan: plan, coverage: &coverage)
    XCTAssertEqual(bad.map(\.rule), [.missingParam], "\(bad.map(\.message))")
    XCTAssertTrue(
      bad.first?.message.contains("unstruct_event.data.data.sku") ?? false, "\(bad.map(\.message))")
    // The URI's own entry wins over the schema name's.
    let removal = PlanValidator.check(
      record(3, name: "iglu:com.acme/remove_from_cart/jsonschema/1-0-0", ["sku": "A-1"]), plan: plan,
      coverage: &coverage)
    XCTAssertEqual(removal.map(\.message), [])
    XCTAssertEqual(
      coverage.items.indices.filter { coverage.isSeen($0) }.map { coverage.items[$0].tag },
      ["add_to_cart", "iglu:com.acme/remove_from_cart/jsonschema/1-0-0"])
  }

  func testATagsPlannedCallNamedByTheSchemaNameIdentifiesIt() {
    let expectation = ExpectedCall(name: "add_to_cart", location: SourceLocation(line: 1, column: 1))
    XCTAssertTrue(expectation.identifies(CallDescription(method: "trackSelfDescribingEvent", name: uri)))
    XCTAssertFalse(
      expectation.identifies(
        CallDescription(
          method: "trackSelfDescribingEvent", name: "iglu:com.acme/remove_from_cart/jsonschema/1-0-0")))
  }
}
