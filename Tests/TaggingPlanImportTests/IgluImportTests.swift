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

  func testVersionsAndVendorsAreWarnedAbout() throws {
    let plan = try importFixtures(["iglu"])
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        "iglu/schemas/com.acme/add_to_cart/jsonschema/1-0-1:4:3: warning: 2 versions of iglu:com.acme/add_to_cart (1-0-0, 1-0-1): the data is checked against 1-0-1, every version's URI is accepted",
        "iglu/schemas/com.other/add_to_cart/jsonschema/1-0-0:3:3: warning: the event name add_to_cart of iglu:com.other/add_to_cart/jsonschema/1-0-0 (self) is already imported from vendor com.acme: left out",
      ])
  }

  func testTheEntryMatchesTheCallListenRecords() throws {
    let plan = try importFixtures(["iglu"])
    let entry = try XCTUnwrap(plan.catalogue.calls.first { $0.key == "add_to_cart" })
    XCTAssertEqual(entry.method, "trackSelfDescribingEvent")
    let event = try XCTUnwrap(
      entry.params.first { $0.name == "unstruct_event" }?.constraints.properties?.first)
    XCTAssertEqual(event.name, "data")
    let inner = try XCTUnwrap(event.constraints.properties)
    XCTAssertEqual(inner.map(\.name), ["schema", "data"])
    XCTAssertEqual(
      inner[0].constraints.allowed,
      [
        .string("iglu:com.acme/add_to_cart/jsonschema/1-0-0"),
        .string("iglu:com.acme/add_to_cart/jsonschema/1-0-1"),
      ])
    XCTAssertEqual(
      inner[1].constraints.properties?.map(\.name), ["sku", "quantity", "unitPrice", "currency"])
    XCTAssertEqual(inner[1].constraints.properties?[2].constraints.maximum, 100_000)
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
