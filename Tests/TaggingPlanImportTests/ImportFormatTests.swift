import TaggingPlanImport
import XCTest

final class ImportFormatTests: XCTestCase {
  func testFormatsAreNamedAsTheCommandTakesThem() {
    XCTAssertEqual(ImportFormat(rawValue: "segment"), .segment)
    XCTAssertEqual(
      ImportFormat.allCases.map(\.rawValue), ["segment", "rudderstack", "iglu", "mparticle", "jsonschema"])
    XCTAssertEqual(
      ImportFormat.allCases.map(\.defaultProvider), ["segment", "rudderstack", "snowplow", "mparticle", nil])
  }

  func testTheFormatIsToldFromTheContent() throws {
    let cases: [(String, ImportFormat)] = [
      ("segment-config-api.json", .segment),
      ("segment-public-api-rules.json", .segment),
      ("rudderstack", .rudderstack),
      ("iglu", .iglu),
      ("mparticle-data-plan.json", .mparticle),
    ]
    for (name, format) in cases {
      XCTAssertEqual(try importFixtures([name]).format, format, name)
    }
    let avo = try importFixtures(["avo-export.json"], options: ImportOptions(provider: "avo-test"))
    XCTAssertEqual(avo.format, .jsonschema)
    XCTAssertEqual(avo.catalogue.provider, "avo-test")
  }

  func testAnUnknownShapeAsksForFrom() {
    XCTAssertEqual(
      importError(["unknown.json"]),
      "unknown.json:1:1: error: cannot tell which tool this file comes from: pass --from segment|rudderstack|iglu|mparticle|jsonschema"
    )
  }

  func testOptionsNameTheCatalogue() throws {
    let plan = try importFixtures(
      ["mparticle-data-plan.json"],
      options: ImportOptions(provider: "mp", name: "Podcasts (imported)", unplanned: .warning))
    XCTAssertTrue(
      plan.yaml.contains(
        "plan: \"Podcasts (imported)\"\ncustomProviders:\n  - mp\ncatalogues:\n  mp:\n    unplanned: warning\n"
      ),
      plan.yaml)
  }
}
