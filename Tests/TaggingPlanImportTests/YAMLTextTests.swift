import TaggingPlan
import TaggingPlanImport
import XCTest

final class YAMLTextTests: XCTestCase {
  /// Names YAML 1.1 would read as something else than the string are quoted in the output.
  func testScalarsThatYAMLWouldMisreadAreQuoted() throws {
    var catalogue = ImportedCatalogue(provider: "segment")
    let names = [
      "Order Completed", "yes", "No", "on", "null", "~", "12", "1e5", "0x1F", "2026-01-01", "a: b", "- x",
      "#tag", "", " lead", "ok",
    ]
    for name in names {
      var constraints = PropertyConstraints()
      constraints.allowed = [.string(name)]
      catalogue.addCall(
        CatalogueEntry(
          key: name.isEmpty ? "empty" : name + " call",
          params: [NamedConstraints(name: name, constraints: constraints)],
          origin: nil))
    }
    let plan = ImportedPlan(
      name: "yes", format: .segment, sources: ["x.json"], catalogue: catalogue, warnings: [])
    XCTAssertTrue(plan.yaml.contains("plan: \"yes\"\n"), plan.yaml)
    XCTAssertTrue(plan.yaml.contains("  Order Completed call:\n"), plan.yaml)
    XCTAssertTrue(plan.yaml.contains("          \"12\": {enum: [\"12\"]}\n"), plan.yaml)
    XCTAssertTrue(plan.yaml.contains("          ok: {enum: [ok]}\n"), plan.yaml)
    // Every name reads back as the same string.
    let root = try DocumentReader.parse(plan.yaml, file: "out.yaml")
    let calls = root["catalogues"]?["segment"]?["calls"]?.members ?? []
    XCTAssertEqual(calls.count, names.count)
    for (call, name) in zip(calls, names) {
      let param = call.value["params"]?.members?.first
      XCTAssertEqual(param?.key, name)
      XCTAssertEqual(param?.value["enum"]?.elements?.first?.value, .string(name))
    }
  }

  func testNumbersAreWrittenAsYAML11ReadsThem() throws {
    var constraints = PropertyConstraints()
    constraints.minimum = 0.0000001
    constraints.maximum = 1e20
    constraints.allowed = [.number(3), .number(-2.5), .bool(false), .null]
    var catalogue = ImportedCatalogue(provider: "segment")
    catalogue.addCall(
      CatalogueEntry(
        key: "e", params: [NamedConstraints(name: "amount", constraints: constraints)], origin: nil))
    let yaml = ImportedPlan(name: "p", format: .segment, sources: [], catalogue: catalogue, warnings: []).yaml
    XCTAssertTrue(
      yaml.contains("amount: {enum: [3, -2.5, false, null], minimum: 1.0e-07, maximum: 1.0e+20}"), yaml)
  }
}
