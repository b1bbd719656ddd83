import Foundation
import TaggingPlan
import TaggingPlanImport
import XCTest

/// Every key of every import fixture is carried into the plan or reported with its place (issue
/// 44's accounting): the source's keys are counted apart from the importer's reader (Foundation's
/// JSONSerialization for JSON, the plan loader's YAML composer for YAML).
final class KeyAccountingTests: XCTestCase {
  func testEveryKeyOfEveryFixtureIsCarriedOrReported() throws {
    var imported = 0
    var skipped: [String] = []
    for unit in try importUnits() {
      guard let plan = Self.imported(unit, listing: true) else {
        skipped.append(unit[0])
        continue
      }
      imported += 1
      let name = unit.map { $0.replacingOccurrences(of: fixturesDirectory + "/", with: "") }.joined(
        separator: ", ")
      var keys = 0
      for source in plan.sources {
        let paths = try sourceKeyPaths(source)
        keys += paths.count
        let accounted = plan.keys.fates.filter { $0.file == source }.map(\.path.description)
        XCTAssertEqual(accounted.count, Set(accounted).count, "\(name): each key accounted once")
        XCTAssertEqual(
          Set(accounted).symmetricDifference(paths).sorted().prefix(5), [],
          "\(name): \(source) has exactly the keys accounted for")
      }
      XCTAssertEqual(plan.keys.keys, keys, "\(name): the account counts every key of the sources")
      XCTAssertEqual(plan.keys.carried + plan.keys.reported, keys, "\(name): \(plan.keys)")
      XCTAssertEqual(plan.keys.fates.filter(\.carried).count, plan.keys.carried, name)
      XCTAssertLessThanOrEqual(plan.keys.reportedByImporter, plan.keys.reported, name)
      if plan.keys.reported > 0 {
        XCTAssertFalse(
          plan.warnings.isEmpty, "\(name): \(plan.keys.reported) keys reported without a warning")
      }
    }
    XCTAssertGreaterThanOrEqual(imported, 20, "the fixtures imported; not: \(skipped)")
  }

  func testTheTopLevelKeysOfARudderTyperPlanAreReported() throws {
    let plan = try importText(
      """
      {
        "create_time": "2022-03-01T10:00:00Z",
        "display_name": "Shop",
        "name": "workspaces/w/tracking-plans/tp_1",
        "updated_at": "2022-03-02T10:00:00Z",
        "labels": {"team": "growth"},
        "rules": {"events": [{"name": "Order Completed", "rules": {
          "type": "object", "properties": {"properties": {"type": "object",
            "properties": {"total": {"type": "number"}}}}}}]}
      }
      """, format: .rudderstack)
    let lines = plan.warnings.map(\.description)
    for key in ["create_time (line 2)", "updated_at (line 5)", "labels (line 6)"] {
      XCTAssertTrue(lines.contains { $0.contains(key) }, "\(key) reported: \(lines)")
    }
  }

  func testTheTopLevelKeysOfASegmentPlanAreReported() throws {
    let plan = try importText(
      """
      {
        "name": "workspaces/acme/tracking-plans/rs_1",
        "display_name": "Acme",
        "create_time": "2020-01-01T00:00:00Z",
        "update_time": "2020-02-01T00:00:00Z",
        "rules": {"events": [{"name": "Signed Up", "version": 1, "rules": {
          "type": "object", "properties": {"properties": {"type": "object",
            "properties": {"plan": {"type": "string"}}}}}}]}
      }
      """, format: .segment)
    let lines = plan.warnings.map(\.description)
    for key in ["create_time (line 4)", "update_time (line 5)"] {
      XCTAssertTrue(lines.contains { $0.contains(key) }, "\(key) reported: \(lines)")
    }
  }

  func testRequiredTrueOfTheEventObjectIsReported() throws {
    let plan = try importText(
      """
      {"title": "Song Played", "type": "object", "required": true,
       "properties": {"song": {"type": "string"}}}
      """, format: .jsonschema, provider: "amplitude")
    let lines = plan.warnings.map(\.description)
    XCTAssertTrue(
      lines.contains {
        $0.contains("plan.json:1:44: warning: required: true of the object holding the parameters")
      },
      "\(lines)")
  }

  func testAKeyNothingTakesIsReportedWithItsPlace() throws {
    let plan = try importText(
      """
      {"events": [{"name": "Signed Up", "rules": {"properties": {"properties": {"type": "object"}}},
        "owner": {"team": "growth"}}]}
      """, format: .jsonschema, provider: "amplitude")
    XCTAssertEqual(
      plan.warnings.map(\.description),
      ["plan.json:2:3: warning: owner (events[0].owner) is not carried by Tagscope, nor the key inside it"])
  }

  func testTheAccountOfAPlanCountsEachKeyOnce() throws {
    let plan = try importText(
      """
      {"events": [{"name": "Signed Up", "title": "Sign-up", "rules": {"properties": {"properties": {"type": "object"}}}}],
       "branding": {"colour": "blue"}}
      """, format: .jsonschema, provider: "amplitude")
    XCTAssertEqual(plan.keys.keys, 9)
    XCTAssertEqual(plan.keys.reported, 3, "branding, colour and the title: \(plan.warnings)")
    XCTAssertEqual(plan.keys.carried, 6)
    XCTAssertEqual(plan.keys.description, "read 9 keys: 6 carried, 3 reported")
  }

  func testTheJSONReportHoldsTheCountsAndEveryWarning() throws {
    let plan = try importText(
      """
      {"events": [{"name": "Signed Up", "rules": {"properties": {"properties": {"type": "object"}}},
        "owner": "growth"}]}
      """, format: .jsonschema, provider: "amplitude")
    let report = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(plan.reportJSON.utf8)) as? [String: Any])
    XCTAssertEqual(report["keys"] as? [String: Int], ["keys": 7, "carried": 6, "reported": 1])
    let warnings = try XCTUnwrap(report["warnings"] as? [[String: Any]])
    XCTAssertEqual(warnings.first?["path"] as? String, "events[0].owner")
    XCTAssertEqual(warnings.first?["line"] as? Int, 2)
    XCTAssertEqual(warnings.first?["column"] as? Int, 3)
  }

  // MARK: Helpers

  /// The imports to account for: each fixture file alone, or its directory when the file does not
  /// import alone (a rudder-cli project's files, an Iglu tree).
  private func importUnits() throws -> [[String]] {
    let skipped: Set<String> = ["expected", "json-schema-test-suite"]
    var units: [[String]] = []
    var directories: Set<String> = []
    let enumerator = FileManager.default.enumerator(atPath: fixturesDirectory)
    while let relative = enumerator?.nextObject() as? String {
      guard let first = relative.split(separator: "/").first, !skipped.contains(String(first)) else {
        continue
      }
      guard [".json", ".yaml", ".yml"].contains(where: relative.hasSuffix) else { continue }
      let path = fixture(relative)
      if Self.imported([path]) != nil {
        units.append([path])
      } else if relative.contains("/") {
        let directory = fixture(String(first))
        if directories.insert(directory).inserted { units.append([directory]) }
      }
    }
    return units.sorted { $0[0] < $1[0] }
  }

  /// The plan `paths` import to: told from the content, or as JSON Schema for a provider (an
  /// export of plain JSON Schema does not name one).
  private static func imported(_ paths: [String], listing: Bool = false) -> ImportedPlan? {
    var options = ImportOptions()
    options.listsEveryKey = listing
    if let plan = try? PlanImporter.run(paths: paths, options: options) { return plan }
    (options.format, options.provider) = (.jsonschema, "amplitude")
    return try? PlanImporter.run(paths: paths, options: options)
  }

  /// The paths of the keys of the file at `path`, found without the importer's reader.
  private func sourceKeyPaths(_ path: String) throws -> Set<String> {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var paths: Set<String> = []
    if let data = text.data(using: .utf8),
      let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    {
      Self.collect(value, at: .root, into: &paths)
    } else if let tree = try YAMLTree.compose(text) {
      Self.collect(tree.root, at: .root, into: &paths)
    }
    return paths
  }

  private static func collect(_ value: Any, at path: JSONPath, into paths: inout Set<String>) {
    if let object = value as? [String: Any] {
      for (key, inner) in object {
        paths.insert(path.key(key).description)
        collect(inner, at: path.key(key), into: &paths)
      }
    } else if let list = value as? [Any] {
      for (index, inner) in list.enumerated() { collect(inner, at: path.index(index), into: &paths) }
    }
  }

  private static func collect(_ node: YAMLNode, at path: JSONPath, into paths: inout Set<String>) {
    switch node.kind {
    case .mapping:
      for (key, inner) in node.pairs {
        paths.insert(path.key(key.string).description)
        collect(inner, at: path.key(key.string), into: &paths)
      }
    case .sequence:
      for (index, inner) in node.children.enumerated() { collect(inner, at: path.index(index), into: &paths) }
    case .scalar: break
    }
  }
}
