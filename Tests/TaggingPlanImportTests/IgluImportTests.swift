import TaggingPlan
import TaggingPlanImport
import XCTest

final class IgluImportTests: XCTestCase {
  func testARegistryDirectoryImportsAsTheGoldenYAML() throws {
    let plan = try importFixtures(["iglu"])
    XCTAssertEqual(plan.format, .iglu)
    XCTAssertEqual(plan.catalogue.provider, "snowplow")
    XCTAssertFalse(plan.sources.contains { $0.hasSuffix("README.md") })
    try assertGolden(plan, "iglu.yaml")
  }

  func testEveryVersionOfEveryVendorIsAnEntryKeyedByItsURI() throws {
    let plan = try importFixtures(["iglu"])
    XCTAssertEqual(
      plan.catalogue.calls.map(\.key),
      [
        "iglu:com.acme/add_to_cart/jsonschema/1-0-0", "iglu:com.acme/add_to_cart/jsonschema/1-0-1",
        "iglu:com.other/add_to_cart/jsonschema/1-0-0", "iglu:com.snowplowanalytics/ad_click/jsonschema/1-0-0",
      ])
    XCTAssertEqual(plan.catalogue.methods.map(\.key), ["trackPageView", "trackPagePing", "trackStructEvent"])
    XCTAssertEqual(
      relativeWarnings(plan),
      [])
  }

  func testTheEntryDescribesTheDataListenRecords() throws {
    let plan = try importFixtures(["iglu"])
    XCTAssertEqual(plan.catalogue.propertiesAt, "unstruct_event.data.data")
    XCTAssertEqual(plan.catalogue.entitiesAt, "contexts.data")
    let entry = try XCTUnwrap(
      plan.catalogue.calls.first { $0.key == "iglu:com.acme/add_to_cart/jsonschema/1-0-1" })
    XCTAssertEqual(entry.method, "trackSelfDescribingEvent")
    XCTAssertFalse(entry.additionalProperties)
    XCTAssertEqual(entry.params.map(\.name), ["sku", "quantity", "unitPrice", "currency"])
    XCTAssertEqual(entry.params[2].constraints.maximum, 100_000)
    let older = try XCTUnwrap(
      plan.catalogue.calls.first { $0.key == "iglu:com.acme/add_to_cart/jsonschema/1-0-0" })
    XCTAssertEqual(older.params.map(\.name), ["sku", "quantity"])
    XCTAssertEqual(plan.catalogue.methods.first?.propertiesAt, ".")
  }

  func testAFileWithoutSelfIsAnError() {
    XCTAssertThrowsError(try importText(#"{"type": "object"}"#, file: "x/y/jsonschema/1-0-0", format: .iglu))
    { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        #"x/y/jsonschema/1-0-0:1:1: error: not a self-describing schema: it has no "self" object"#)
    }
  }

  func testABadVersionIsAnError() {
    let text = #"{"self": {"vendor": "com.acme", "name": "a", "format": "jsonschema", "version": "1.0.0"}}"#
    XCTAssertThrowsError(try importText(text, file: "a", format: .iglu)) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        #"a:1:81: error: self.version "1.0.0" is not a SchemaVer (model-revision-addition)"#)
    }
  }
}
