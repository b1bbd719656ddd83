import Foundation
import TaggingPlan
import XCTest

@testable import TaggingPlanImport

/// Issue 42, item 4: `plan import` of a hostile source ends, within a budget of the source's size,
/// and says what it left out and where.
final class HostileImportTests: XCTestCase {
  /// A chain of 600 `$ref`s (and of 5,000 custom types) crashed `tagscope plan import` (SIGSEGV,
  /// a stack overflow); the chain is now cut at the depth limit, with a warning at its place,
  /// and the rest imports.
  func testRefChainsEndAtTheDepthLimitInTheTagscopeCommand() throws {
    let iglu = "schemas/com.acme/chained/jsonschema/1-0-0"
    let folder = try HostileImportInputs.folder(
      [
        ("chain.json", HostileImportInputs.refChainSchema(length: 600)),
        ("segment.json", HostileImportInputs.refChainSegment(length: 600)),
        (iglu, HostileImportInputs.refChainIglu(length: 600)),
      ] + HostileImportInputs.rudderCustomTypeChain(length: 5_000).map { ("rudder/" + $0, $1) })
    defer { try? FileManager.default.removeItem(at: folder) }
    let runs: [([String], String)] = [
      (["--from", "jsonschema", "--provider", "segment", "chain.json"], "chain.json:1:"),
      (["--from", "segment", "segment.json"], "segment.json:1:"),
      (["--from", "iglu", "schemas"], "\(iglu):1:"),
      (["--from", "rudderstack", "rudder"], "custom-types.yaml:"),
    ]
    for (arguments, place) in runs {
      let (status, output, errors) = try Self.tagscope(["plan", "import"] + arguments, in: folder)
      XCTAssertEqual(status, 0, "\(arguments): \(errors.suffix(2_000))")
      XCTAssertTrue(output.lowercased().contains("chained"), "\(arguments): the event is imported")
      let warning = errors.split(separator: "\n").first { $0.contains("deep") }
      XCTAssertNotNil(warning, "\(arguments): \(errors.suffix(2_000))")
      XCTAssertTrue(warning?.contains(place) == true, "\(warning ?? "") names \(place)")
    }
  }

  /// The imports whose recursion is deepest (the chains, a document nested as deep as the readers
  /// allow) run on a secondary thread's default 512 KiB stack; run in a child test process so a
  /// stack overflow fails this test instead of ending the run.
  func testTheDeepestImportsFitASecondaryThreadsStack() throws {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let process = Process()
    process.executableURL = executable
    process.arguments = ["TaggingPlanImportTests.SmallStackImportTests"]
    process.environment = ProcessInfo.processInfo.environment.merging(
      [SmallStackImportTests.childVariable: "1"], uniquingKeysWith: { $1 })
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationReason, .exit, output.suffix(3_000).description)
    XCTAssertEqual(process.terminationStatus, 0, output.suffix(3_000).description)
    XCTAssertTrue(output.contains("Executed 1 test"), output.suffix(3_000).description)
  }

  /// One budget for the whole import: four events each referencing a definition that expands to
  /// 2^15 nodes took 2^15 nodes each (the budget was per event); they now share one.
  func testTheExpansionBudgetIsOnePerImport() throws {
    let text = HostileImportInputs.doubledReferences(levels: 15, events: 4)
    let plan = try importText(text, format: .jsonschema, provider: "segment")
    let budget = ExpansionBudget(sourceBytes: text.utf8.count)
    let nodes = plan.catalogue.calls.reduce(0) { $0 + Self.nodes($1.params) }
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["E0", "E1", "E2", "E3"])
    XCTAssertLessThanOrEqual(nodes, budget.nodeLimit + 4 * 2, "nodes imported")
    let warnings = importerWarnings(plan).filter {
      $0.message.contains("expand past \(budget.nodeLimit) nodes")
    }
    XCTAssertLessThanOrEqual(warnings.count, 4, "at most once per event")
    let first = try XCTUnwrap(warnings.first, "\(importerWarnings(plan))")
    XCTAssertTrue(first.description.hasPrefix("plan.json:1:"), "the warning names its place: \(first)")
  }

  /// The budget counts what references expand, not what the source writes: a schema of 100,010
  /// properties lost its last ten ("expands to more than 100000 nodes").
  func testAWrittenSchemaIsNotCutByTheBudget() throws {
    let count = 100_010
    let properties = (0..<count).map { #""p\#($0)":{}"# }.joined(separator: ",")
    let plan = try importText(
      #"{"title":"Wide","type":"object","properties":{"# + properties + "}}", format: .jsonschema,
      provider: "segment")
    XCTAssertEqual(plan.catalogue.calls.first?.params.count, count)
    XCTAssertEqual(importerWarnings(plan), [])
  }

  /// RudderStack properties whose definitions nest two references to the next: past the budget
  /// the import failed whole ("expands to more than 100000 properties"); now the expansions past
  /// the budget are left out with a warning at their place, and the event imports.
  func testRudderStackNestedReferencesShareTheBudget() throws {
    let files = HostileImportInputs.rudderDoubledProperties(levels: 17)
    let plan = try Self.importRudder(files)
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Doubled"])
    let bytes = files.reduce(0) { $0 + $1.1.utf8.count }
    let budget = ExpansionBudget(sourceBytes: bytes)
    XCTAssertLessThanOrEqual(
      Self.nodes(plan.catalogue.calls[0].params), budget.nodeLimit + 2, "nodes imported")
    let warning = importerWarnings(plan).first {
      $0.message.contains("expand past \(budget.nodeLimit) nodes")
    }
    XCTAssertTrue(warning?.description.hasPrefix("properties.yaml:") == true, "\(importerWarnings(plan))")
  }

  /// A `{{ .BIG }}` variable of 100 KB in 100 descriptions made 10 MB of plan; what placeholders
  /// add is now bounded by the import's budget, the rest kept as written, and said once.
  func testARepeatedVariableIsBoundedByTheBudget() throws {
    let files = HostileImportInputs.rudderRepeatedVariable(events: 100, valueBytes: 100_000)
    let plan = try Self.importRudder(files)
    XCTAssertEqual(plan.catalogue.calls.count, 100)
    let bytes = files.reduce(0) { $0 + $1.1.utf8.count }
    let budget = ExpansionBudget(sourceBytes: bytes)
    let described = plan.catalogue.calls.reduce(0) { $0 + ($1.description?.utf8.count ?? 0) }
    XCTAssertLessThanOrEqual(described, budget.byteLimit + bytes)
    XCTAssertTrue(plan.catalogue.calls.contains { $0.description == "{{ .BIG }}" }, "kept as written")
    let warnings = importerWarnings(plan).filter { $0.message.contains("placeholders would add more than") }
    XCTAssertEqual(warnings.count, 1, "\(importerWarnings(plan))")
  }

  /// A name of 10,000 characters failed the whole import ("would not load"); each such entry or
  /// property is now refused alone, with its place, and the rest imports.
  func testALongNameIsRefusedAloneWithItsPlace() throws {
    let long = String(repeating: "n", count: 10_000)
    let text = #"""
      {"events": [
        {"name": "\#(long)", "properties": {"a": {"type": "string"}}},
        {"name": "Kept", "properties": {"b": {"type": "string"}}},
        {"name": "Trimmed", "properties": {
          "\#(long)": {"type": "string"},
          "c": {"type": "array", "items": {"type": "object", "properties": {"\#(long)": {}, "d": {}}}},
          "e": {"allOf": [{"type": "object", "properties": {"\#(long)": {}, "f": {}}}]}}}
      ]}
      """#
    let plan = try importText(text, format: .jsonschema, provider: "segment")
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Kept", "Trimmed"])
    let trimmed = try XCTUnwrap(plan.catalogue.calls.last)
    XCTAssertEqual(trimmed.params.map(\.name), ["c", "e"])
    XCTAssertEqual(trimmed.params[0].constraints.items?.properties?.map(\.name), ["d"])
    XCTAssertEqual(trimmed.params[1].constraints.keywords?.allOf.first?.properties?.map(\.name), ["f"])
    let lines = importerWarnings(plan).map(\.description)
    XCTAssertEqual(lines.count, 4, "\(lines)")
    XCTAssertTrue(lines[0].hasPrefix("plan.json:2:3: warning: the entry at events[0] has a name of 10000"))
    for line in lines.dropFirst() {
      XCTAssertTrue(line.hasPrefix("plan.json:4:3: warning: a property with a name of 10000"), line)
      XCTAssertTrue(line.contains("(params of \"Trimmed\", events[2])"), line)
    }
  }

  /// The names of `dependentSchemas` and `dependentRequired` are keys in the plan too: a long one
  /// failed the whole import; it is now refused alone, with its place.
  func testALongKeywordNameIsRefusedAloneWithItsPlace() throws {
    let long = String(repeating: "k", count: 3_000)
    let text = #"""
      {"title": "E", "type": "object", "properties": {"a": {"type": "object",
        "dependentSchemas": {"\#(long)": {"required": ["x"]}, "ok": {"required": ["y"]}},
        "dependentRequired": {"\#(long)": ["z"], "fine": ["w"]}}}}
      """#
    let plan = try importText(text, format: .jsonschema, provider: "segment")
    let keywords = try XCTUnwrap(plan.catalogue.calls.first?.params.first?.constraints.keywords)
    XCTAssertEqual(keywords.dependentSchemas.map(\.name), ["ok"])
    XCTAssertEqual(keywords.dependentRequired.map(\.name), ["fine"])
    XCTAssertEqual(
      importerWarnings(plan).map(\.description),
      ["dependentSchemas", "dependentRequired"].map {
        "plan.json:1:1: warning: \($0) with a name of 3000 characters (more than 1000) in a (params of \"E\", (root)) is refused by the plan format: left out"
      })
  }

  /// A rule listing one property twice wrote a plan with a repeated key, and the import failed
  /// whole ("would not load"); the second is now left out with a warning at the rule's place.
  func testARepeatedPropertyIsRefusedAloneWithItsPlace() throws {
    let files = HostileImportInputs.rudderProject(
      events: ["    - id: e\n      name: Twice\n      event_type: track\n"],
      properties: ["    - id: p\n      name: p\n      type: string\n"],
      rules: [HostileImportInputs.rudderRule("e", properties: ["p", "p"])])
    let plan = try Self.importRudder(files)
    XCTAssertEqual(plan.catalogue.calls.first?.params.first?.constraints.properties?.map(\.name), ["p"])
    XCTAssertEqual(
      importerWarnings(plan).map(\.description),
      [
        #"tp.yaml:9:7: warning: a second property named "p" in properties (params of track "Twice", spec.rules[0]) is refused by the plan format: left out"#
      ])
  }

  /// The nodes of `properties`, at every depth.
  static func nodes(_ properties: [NamedConstraints]) -> Int {
    properties.reduce(0) { total, property in
      total + 1 + nodes(property.constraints.properties ?? [])
        + (property.constraints.items.map { nodes($0.properties ?? []) } ?? 0)
    }
  }

  /// The plan of a rudder-cli project's files, read from a temporary folder.
  static func importRudder(_ files: [(String, String)]) throws -> ImportedPlan {
    let folder = try HostileImportInputs.folder(files)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plan = try PlanImporter.run(paths: [folder.path], options: ImportOptions(format: .rudderstack))
    return try relative(plan, to: folder)
  }

  /// `plan` with `folder` left out of its warnings' files, once checked to load.
  static func relative(_ plan: ImportedPlan, to folder: URL) throws -> ImportedPlan {
    _ = try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml")
    let prefix = folder.path + "/"
    let warnings = importerWarnings(plan).map { warning in
      var warning = warning
      if warning.file.hasPrefix(prefix) { warning.file.removeFirst(prefix.count) }
      return warning
    }
    return ImportedPlan(
      name: plan.name, format: plan.format, sources: plan.sources, catalogue: plan.catalogue,
      warnings: warnings)
  }

  /// Runs the built `tagscope` in `folder`: its exit status, standard output and standard error.
  static func tagscope(_ arguments: [String], in folder: URL) throws -> (Int32, String, String) {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("tagscope")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let errorFile = folder.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    let errorHandle = try FileHandle(forWritingTo: errorFile)
    defer { try? errorHandle.close() }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errorHandle
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errors = try String(contentsOf: errorFile, encoding: .utf8)
    let status =
      process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    return (status, String(decoding: data, as: UTF8.self), errors)
  }
}
