import Foundation
import TaggingPlanImport
import XCTest

/// `plan import` says which format it read and why, refuses what reads as two formats, and reads
/// RudderTyper's plans as RudderStack's and Terraform's bare rules object as Segment's.
final class FormatEvidenceTests: XCTestCase {
  func testEveryFormatSaysTheKeysThatToldIt() throws {
    let cases: [(String, String)] = [
      (
        "segment-config-api.json",
        "read as Segment (Segment Config API tracking plan: rules.events, rules.global, rules.identify, name …/tracking-plans/rs_…)"
      ),
      ("segment-public-api-rules.json", "read as Segment (Segment Public API response: data.rules[])"),
      (
        "segment-real/typewriter-plan-v1.json",
        "read as Segment (Segment Config API tracking plan: rules.events, name …/tracking-plans/rs_…)"
      ),
      (
        "segment-terraform/rules.json",
        "read as Segment (Segment Config API rules object (Terraform's rules_json_file): global, identify, group, events)"
      ),
      (
        "rudderstack-typer/plan-2022-ecommerce.json",
        "read as RudderStack (RudderTyper plan.json: rules.events[].rules, name …/tracking-plans/tp_…, rules.events[].id ev_…)"
      ),
      (
        "rudderstack-typer/plan-2024-event-types.json",
        "read as RudderStack (RudderTyper plan.json: rules.events[].rules, id tp_…, creationType, workspaceId, rules.events[].eventType)"
      ),
      ("rudderstack", "read as RudderStack (rudder-cli file: version rudder/0.1, kind custom-types)"),
      ("iglu", "read as Snowplow Iglu (Iglu self-describing schema: self.vendor, self.name)"),
      ("mparticle-data-plan.json", "read as mParticle (mParticle data plan: data_plan_versions)"),
    ]
    for (name, said) in cases {
      XCTAssertEqual(try importFixtures([name]).evidence?.description, said, name)
    }
    let avo = try importFixtures(["avo-export.json"], options: ImportOptions(provider: "avo-test"))
    XCTAssertEqual(avo.evidence?.description, "read as JSON Schema (Avo export: events[].rules)")
    let given = try importFixtures(["segment-config-api.json"], options: ImportOptions(format: .segment))
    XCTAssertEqual(given.evidence?.description, "read as Segment (--from segment)")
  }

  /// A Config API plan with neither tool's ids is Segment's or RudderTyper's: refused with both,
  /// and `--from` picks (the catalogue then follows that provider's messages).
  func testAPlanOfTwoFormatsIsRefusedWithTheChoicesAndFromPicks() throws {
    let text = #"""
      {"create_time": "2022-03-22T07:52:25.809Z", "display_name": "Shop", "name": "Shop",
       "rules": {"events": [{"name": "Order Completed", "rules": {"properties": {"properties": {
         "properties": {"total": {"type": "number"}}, "required": ["total"]}}}}]}}
      """#
    let root = try DocumentReader.document(text, file: "plan.json").root
    XCTAssertNil(ImportFormat.detect(root))
    let folder = try temporaryFolder(["plan.json": text])
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("plan.json").path
    XCTAssertThrowsError(try PlanImporter.run(paths: [path])) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        "\(path):1:1: error: this file reads as 2 formats, RudderStack (RudderTyper plan.json: rules.events[].rules); Segment (Segment Config API tracking plan: rules.events): pass --from rudderstack or --from segment"
      )
    }
    for format in [ImportFormat.rudderstack, .segment] {
      let plan = loadChecked(try PlanImporter.run(paths: [path], options: ImportOptions(format: format)))
      XCTAssertEqual(plan.catalogue.provider, format.rawValue)
      XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Order Completed"])
      XCTAssertEqual(plan.catalogue.calls.first?.params.first?.constraints.required, true)
    }
  }

  /// The bare rules object the Terraform Segment provider takes (`rules_json_file`): told from
  /// its keys and read with `--from segment` (both refused it before).
  func testTerraformsRulesObjectImportsAsSegment() throws {
    for options in [ImportOptions(), ImportOptions(format: .segment)] {
      let plan = try importFixtures(["segment-terraform/rules.json"], options: options)
      XCTAssertEqual(plan.format, .segment)
      XCTAssertEqual(plan.name, "rules (imported)")
      XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Test Event"])
      let user = try XCTUnwrap(plan.catalogue.calls.first?.params.first { $0.name == "user_id" })
      XCTAssertEqual(user.constraints.types, [.string])
      XCTAssertEqual(user.constraints.description, "unique id of the user")
      XCTAssertEqual(
        plan.catalogue.methods.map(\.key), ["group", "identify", "page", "screen", "alias"])
      // The provider's example puts `required: [properties]` inside `properties`: said, not lost.
      XCTAssertEqual(
        relativeWarnings(plan),
        [
          "segment-terraform/rules.json:34:11: warning: required (events[0].rules.properties.required) is not imported: Tagscope checks the call's properties and context against this rule"
        ])
    }
  }

  /// `tagscope plan import` prints the evidence as its first line on standard error.
  func testTheCommandPrintsWhatItReadAndWhy() throws {
    let folder = try temporaryFolder([:])
    defer { try? FileManager.default.removeItem(at: folder) }
    let (status, output, errors) = try HostileImportTests.tagscope(
      ["plan", "import", fixture("rudderstack-typer/plan-2022-ecommerce.json")], in: folder)
    XCTAssertEqual(status, 0, errors)
    XCTAssertTrue(output.contains("  rudderstack:\n"), output)
    XCTAssertEqual(
      errors.split(separator: "\n").first,
      "read as RudderStack (RudderTyper plan.json: rules.events[].rules, name …/tracking-plans/tp_…, rules.events[].id ev_…)"
    )
  }

  private func temporaryFolder(_ files: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "evidence-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, text) in files {
      try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return folder
  }
}
