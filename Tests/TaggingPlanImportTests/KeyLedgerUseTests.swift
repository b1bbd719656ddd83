import Foundation
import TaggingPlan
import TaggingPlanImport
import XCTest

/// A key counts as carried only when the importer used its value (issue 44's ledger): a key it
/// looked up and then dropped, its value of a shape it does not read, is reported with its place.
final class KeyLedgerUseTests: XCTestCase {
  /// A keyword whose value is of a kind the converter does not read (`description: 42`) was
  /// looked up, counted as carried and dropped without a word.
  func testAKeywordOfAShapeNotReadIsReported() throws {
    let plan = try importText(
      """
      {"events": [{"name": "Signed Up", "rules": {"properties": {"properties": {"type": "object",
        "properties": {"plan": {"type": "string", "description": 42}}}}}}]}
      """, format: .jsonschema, provider: "amplitude")
    XCTAssertTrue(
      plan.warnings.map(\.description).contains {
        $0.hasPrefix("plan.json:2:45: warning: description (")
      }, "\(plan.warnings)")
    XCTAssertEqual(plan.keys.carried + plan.keys.reported, plan.keys.keys)
    XCTAssertEqual(plan.keys.reported, 1, "\(plan.warnings)")
  }

  /// The sibling at the event level: an event's `description` that is not text.
  func testAnEventDescriptionThatIsNotTextIsReported() throws {
    let plan = try importText(
      """
      {"events": [{"name": "Signed Up", "description": ["a", "b"],
        "rules": {"properties": {"properties": {"type": "object"}}}}]}
      """, format: .jsonschema, provider: "amplitude")
    XCTAssertTrue(
      plan.warnings.map(\.description).contains { $0.hasPrefix("plan.json:1:35: warning: description (") },
      "\(plan.warnings)")
  }

  /// A real file's sibling: RudderTyper's `"version": "1-0-0"` was looked up as a number,
  /// found to be text, and dropped without a word.
  func testARuleVersionWrittenAsTextIsReported() throws {
    let plan = try importFixtures(["rudderstack-typer/plan-2022-ecommerce.json"])
    let lines = plan.warnings.map {
      $0.description.replacingOccurrences(of: fixturesDirectory + "/", with: "")
    }
    XCTAssertTrue(
      lines.contains(
        "rudderstack-typer/plan-2022-ecommerce.json:86:5: warning: version (rules.events[0].version) is not carried by Tagscope"
      ), "\(lines)")
    XCTAssertEqual(plan.keys.description, "read 145 keys: 134 carried, 11 reported")
  }

  /// Per fixture file: keys, carried, reported (issue 44's figures); set
  /// `TAGSCOPE_KEY_FIGURES=1` to print the table.
  func testTheAccountOfEachRealFile() throws {
    guard ProcessInfo.processInfo.environment["TAGSCOPE_KEY_FIGURES"] == "1" else { return }
    var lines: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: fixturesDirectory)
    var units: [String] = []
    while let relative = enumerator?.nextObject() as? String {
      guard !relative.hasPrefix("expected"), !relative.hasPrefix("json-schema-test-suite") else { continue }
      guard [".json", ".yaml", ".yml"].contains(where: relative.hasSuffix) else { continue }
      units.append(relative)
    }
    // Each file alone; a file that reads only with its project (rudder-cli's events.yaml…) counts
    // in its directory's import, once, when no file there reads alone; the Amplitude JSON Schema
    // reading is the last resort.
    var alone: [String: ImportedPlan] = [:]
    for relative in units {
      alone[relative] = try? PlanImporter.run(paths: [fixture(relative)], options: ImportOptions())
    }
    func directory(of relative: String) -> String? {
      relative.lastIndex(of: "/").map { String(relative[..<$0]) }
    }
    let readAlone = Set(alone.keys.compactMap(directory))
    var directories: Set<String> = []
    for relative in units.sorted() {
      var (name, plan) = (relative, alone[relative])
      if plan == nil, let folder = directory(of: relative), !readAlone.contains(folder),
        let project = try? PlanImporter.run(paths: [fixture(folder)], options: ImportOptions())
      {
        guard directories.insert(folder).inserted else { continue }
        (name, plan) = (folder, project)
      }
      guard let plan = plan ?? Self.imported(fixture(relative)) else { continue }
      lines.append("| \(name) | \(plan.keys.keys) | \(plan.keys.carried) | \(plan.keys.reported) |")
    }
    print((["| file | keys | carried | reported |", "|---|---|---|---|"] + lines).joined(separator: "\n"))
  }

  private static func imported(_ path: String) -> ImportedPlan? {
    var options = ImportOptions()
    if let plan = try? PlanImporter.run(paths: [path], options: options) { return plan }
    (options.format, options.provider) = (.jsonschema, "amplitude")
    return try? PlanImporter.run(paths: [path], options: options)
  }
}
