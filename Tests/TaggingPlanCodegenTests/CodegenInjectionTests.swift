import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeFuzzing
import XCTest

@testable import TaggingPlanCodegen

/// Plan text never becomes code: every line break, control and bidi scalar is written visibly in
/// comments and escaped in literals, keywords are backticked wherever a name is written, and a
/// seeded fuzz pass of hostile plans generates nothing the plan did not ask for. (That the output
/// compiles and its tour runs is `CodegenRoundTripTests`' part: the injection plan is one of its
/// modules.)
final class CodegenInjectionTests: XCTestCase {
  func testTextInEveryPlaceStaysInItsCommentOrLiteral() throws {
    let plan = try PlanLoader.load(yaml: InjectionPlans.everywhere, file: "injection.yaml")
    let files = generate(plan)
    XCTAssertEqual(files.count, 4)
    for file in files { assertNothingInjected(file) }
    let text = files.map(\.text).joined()
    // What a description or the plan's name holds is put on one line first (its line breaks made
    // spaces); every other scalar shows as its escape where the plan holds it.
    for scalar in InjectionPlans.separators where !Character(scalar).isNewline {
      let escape = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      XCTAssertTrue(text.contains(escape), "U+\(escape) is shown where the plan holds it")
    }
  }

  func testInoutIsBacktickedAsALabelAndKeywordsAfterADot() throws {
    let plan = try PlanLoader.load(yaml: InjectionPlans.everywhere, file: "injection.yaml")
    let files = generate(plan)
    let tour = try XCTUnwrap(files.first { $0.name.hasSuffix("Tour.swift") }).text
    XCTAssertTrue(tour.contains("hub.send(event: .`inout`(`inout`: "), tour)
    XCTAssertTrue(tour.contains(", let: "), "let is taken unescaped as a label (Swift warns about backticks)")
    let taxonomy = try XCTUnwrap(files.first { $0.name.hasSuffix("Taxonomy.swift") }).text
    XCTAssertFalse(taxonomy.contains("(inout:"), "no bare inout label")
    XCTAssertFalse(taxonomy.contains(".inout"), "no bare inout member")
  }

  /// The red team's path: a vendor export whose names and descriptions carry line breaks, through
  /// `plan import`, then codegen. The import keeps the text; codegen shows it, never runs it.
  func testAnImportedVendorExportCannotInjectCode() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "codegen-injection-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func json(_ index: Int, _ prefix: String) -> String {
      let text = InjectionPlans.payload(index, prefix: prefix)
      return String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
    let export = """
      {"display_name": \(json(0, "Kicks")), "rules": {"events": [{"name": \(json(1, "Order")),
        "description": \(json(5, "bought")), "version": 1, "rules": {"type": "object", "properties": {
        "properties": {"type": "object", "required": [\(json(2, "id"))], "properties": {
          \(json(2, "id")): {"type": "string", "description": \(json(6, "d")), "pattern": \(json(9, "^o"))},
          \(json(3, "kind")): {"type": "string", "enum": [\(json(4, "a")), \(json(10, "b"))]}}}}}}]}}
      """
    let path = directory.appendingPathComponent("export.json")
    try export.write(to: path, atomically: true, encoding: .utf8)
    let imported = try PlanImporter.run(paths: [path.path], options: ImportOptions(format: .segment))
    let plan = try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml")
    XCTAssertTrue(
      plan.catalogues.contains {
        $0.entries.contains { $0.name == InjectionPlans.payload(1, prefix: "Order") }
      },
      imported.yaml)
    for scalar in imported.yaml.unicodeScalars where scalar != "\n" {
      XCTAssertFalse(
        YAMLText.isHidden(scalar), "the imported plan shows U+\(String(scalar.value, radix: 16))")
    }
    for file in generate(plan) { assertNothingInjected(file, context: imported.yaml) }
  }

  /// Seeded random plans made of hostile pieces in random places: whatever loads generates only
  /// what it asked for, on lines that stay lines.
  func testFuzzedPlansGenerateNothingTheyDidNotAskFor() throws {
    var random = SeededGenerator(seed: 0x7A65_7363)
    var loaded = 0
    let cases = 400
    for index in 0..<cases {
      let yaml = fuzzedPlan(&random, index: index)
      guard let plan = try? PlanLoader.load(yaml: yaml, file: "fuzz-\(index).yaml") else { continue }
      loaded += 1
      for file in generate(plan) { assertNothingInjected(file, context: "case \(index)\n\(yaml)") }
    }
    XCTAssertGreaterThan(loaded, cases / 2, "most fuzzed plans load, so the pass tests the generator")
  }

  private func generate(_ plan: Plan) -> [PlanCodegen.File] {
    PlanCodegen(
      plan: plan,
      options: PlanCodegen.Options(moduleName: "Injected", includesTour: true, toolVersion: "test")
    ).files()
  }

  private func assertNothingInjected(
    _ file: PlanCodegen.File, context: String = "", line: UInt = #line
  ) {
    for scalar in file.text.unicodeScalars where scalar != "\n" {
      let category = scalar.properties.generalCategory
      XCTAssertFalse(
        [.control, .format, .lineSeparator, .paragraphSeparator].contains(category),
        "\(file.name) holds U+\(String(scalar.value, radix: 16)) raw\n\(context)", line: line)
    }
    let code = GeneratedCode.codeOnly(file.text)
    XCTAssertFalse(
      code.contains("fatalError("), "\(file.name): plan text became code\n\(file.text)\n\(context)",
      line: line)
  }

  /// A plan of `index`-numbered hostile names in random places.
  private func fuzzedPlan(_ random: inout SeededGenerator, index: Int) -> String {
    func name(_ slot: Int) -> String {
      var text = ""
      for _ in 0...random.below(3) { text += Self.pieces[random.below(Self.pieces.count)] }
      return InjectionPlans.quoted(text + "_\(index)_\(slot)")
    }
    let section = ["screens", "actions", "events", "states", "timed"][random.below(5)]
    var yaml = "plan: \(name(0))\nversion: \(name(1))\ndescription: \(name(2))\n\(section):\n"
    for tag in 0..<(1 + random.below(3)) {
      yaml += "  \(name(10 + tag)):\n    description: \(name(20 + tag))\n    properties:\n"
      for property in 0..<random.below(4) {
        let slot = 100 * (tag + 1) + property
        switch random.below(4) {
        case 0: yaml += "      \(name(slot)): {type: string, description: \(name(slot + 50))}\n"
        case 1:
          yaml += "      \(name(slot)): {type: string, enum: [\(name(slot + 50)), \(name(slot + 60))]}\n"
        case 2:
          yaml += "      \(name(slot)): {type: object, properties: {\(name(slot + 50)): {type: integer}}}\n"
        default: yaml += "      \(name(slot)): {type: string, pattern: \(name(slot + 50))}\n"
        }
      }
      if random.below(2) == 0 {
        yaml += "    providers:\n      amplitude: {name: \(name(30 + tag))}\n"
      }
    }
    if random.below(2) == 0 {
      yaml += "catalogues:\n  segment:\n    calls:\n      \(name(40)):\n        method: track\n"
      yaml += "        params: {\(name(41)): {type: string, description: \(name(42))}}\n"
    }
    return yaml
  }

  private static let pieces: [String] =
    InjectionPlans.separators.map { String(Character($0)) + InjectionPlans.statement }
    + [
      "inout", "let", "var", "default", "self", "Self", "Type", "init", "_", "class", "*/", "/*", "\"\"\"",
      "#", "\\(x)", "`", "\"", "\\", "🎧", "é", "a b", "42", "", "}", "{", ";", "//", "///",
    ]
}

extension SeededGenerator {
  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
}
