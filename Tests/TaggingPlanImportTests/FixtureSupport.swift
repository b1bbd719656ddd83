import Foundation
import TaggingPlan
import TaggingPlanImport
import XCTest

/// The directory of the fixtures, next to this file.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
  "Fixtures"
)
.path

/// The path of a fixture.
func fixture(_ name: String) -> String { fixturesDirectory + "/" + name }

/// The text of a fixture.
func fixtureText(_ name: String) throws -> String {
  try String(contentsOfFile: fixture(name), encoding: .utf8)
}

/// The plan `paths` (fixture names) import to.
func importFixtures(_ names: [String], options: ImportOptions = ImportOptions()) throws(ImportError)
  -> ImportedPlan
{
  loadChecked(try PlanImporter.run(paths: names.map(fixture), options: options))
}

/// The YAML of an imported plan with the fixtures directory left out of its comments.
func relativeYAML(_ plan: ImportedPlan) -> String {
  plan.yaml.replacingOccurrences(of: fixturesDirectory + "/", with: "")
}

/// The importer's warnings as `file:line:column: warning: …` lines, the fixtures directory left
/// out; the key accounting's lines (``isAccounting(_:)``) are left out too: `KeyAccountingTests`
/// and the goldens check them.
func relativeWarnings(_ plan: ImportedPlan) -> [String] {
  importerWarnings(plan).map { $0.description.replacingOccurrences(of: fixturesDirectory + "/", with: "") }
}

/// The warnings of `plan` other than the key accounting's.
func importerWarnings(_ plan: ImportedPlan) -> [ImportWarning] {
  plan.warnings.filter { !isAccounting($0) }
}

/// Whether `warning` is one of the key accounting's lines (`not carried: 3 keys of plan metadata…`,
/// `x (path) is not carried by Tagscope`).
func isAccounting(_ warning: ImportWarning) -> Bool {
  warning.message.hasPrefix("not carried: ") || warning.message.contains(") is not carried by Tagscope")
}

/// The error importing `paths` throws, as its `file:line:column: error: …` line.
func importError(
  _ names: [String], options: ImportOptions = ImportOptions(), file: StaticString = #filePath,
  line: UInt = #line
)
  -> String?
{
  do {
    _ = try importFixtures(names, options: options)
    XCTFail("expected an error", file: file, line: line)
    return nil
  } catch {
    return error.description.replacingOccurrences(of: fixturesDirectory + "/", with: "")
  }
}

/// A plan imported from `text` (JSON or YAML) named `file`.
func importText(_ text: String, file: String = "plan.json", format: ImportFormat, provider: String? = nil)
  throws(ImportError) -> ImportedPlan
{
  let document = try DocumentReader.document(text, file: file)
  return loadChecked(
    try PlanImporter.run(documents: [document], format: format, options: ImportOptions(provider: provider)))
}

/// `plan`, after checking that its YAML loads with the plan loader (every plan an import writes
/// in these tests goes through here).
func loadChecked(_ plan: ImportedPlan, file: StaticString = #filePath, line: UInt = #line) -> ImportedPlan {
  do {
    _ = try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml")
  } catch {
    XCTFail("the imported plan does not load: \(error)", file: file, line: line)
  }
  return plan
}

/// Fails unless `plan`'s YAML (fixtures directory left out) is the golden file `expected/<name>`.
func assertGolden(_ plan: ImportedPlan, _ name: String, file: StaticString = #filePath, line: UInt = #line)
  throws
{
  let actual = relativeYAML(plan)
  // `UPDATE_GOLDENS=1` writes the golden instead (and fails, so each one is reviewed).
  if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
    let url = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
      .appendingPathComponent("Fixtures/expected/" + name)
    try actual.write(to: url, atomically: true, encoding: .utf8)
    XCTFail("golden expected/\(name) written; review it and run again", file: file, line: line)
    return
  }
  let expected = try fixtureText("expected/" + name)
  if actual != expected {
    let firstDifference = zip(
      actual.split(separator: "\n", omittingEmptySubsequences: false),
      expected.split(separator: "\n", omittingEmptySubsequences: false)
    )
    .enumerated().first { $0.element.0 != $0.element.1 }
    XCTFail(
      "the YAML differs from expected/\(name)"
        + (firstDifference.map {
          " at line \($0.offset + 1):\n  got:      \($0.element.0)\n  expected: \($0.element.1)"
        } ?? " in length"),
      file: file, line: line)
  }
}
