import Foundation
import XCTest

@testable import TaggingPlan

/// The plan format reference (`tagscope help plan`, to which README links) cannot drift from the
/// loader: every key the loader accepts is in it and every example loads.
final class PlanFormatReferenceTests: XCTestCase {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func read(_ relativePath: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
  }

  /// The keys the loader accepts at a place, read from its own "unknown key" error there, so a key
  /// added to the loader without a word in the reference fails this test.
  func acceptedKeys(_ yaml: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
    do {
      _ = try PlanLoader.load(yaml: yaml, file: "keys.yaml")
      XCTFail("the plan with an unknown key loaded", file: file, line: line)
    } catch let error as PlanLoadError {
      if let range = error.message.range(of: "expected one of: ") {
        return error.message[range.upperBound...].components(separatedBy: ", ")
      }
      XCTFail("unexpected message: \(error.message)", file: file, line: line)
    } catch {
      XCTFail("\(error)", file: file, line: line)
    }
    return []
  }

  func testEveryKeyTheLoaderAcceptsIsInTheReference() {
    let places: [(String, String, [String])] = [
      ("top level", "plan: P\nbogus: 1\n", PlanLoader.topKeys),
      ("an entry", "plan: P\nactions:\n  a: {bogus: 1}\n", PlanLoader.entryKeys),
      (
        "a screen entry", "plan: P\nscreens:\n  s: {bogus: 1}\n",
        PlanLoader.entryKeys.filter { $0 != "screens" }
      ),
      ("a property", "plan: P\nactions:\n  a: {properties: {p: {bogus: 1}}}\n", PlanLoader.propertyKeys),
      ("a call", "plan: P\nactions:\n  a: {providers: {f: {bogus: 1}}}\n", PlanLoader.callKeys),
      (
        "a when", "plan: P\nactions:\n  a: {providers: {f: {name: n, when: {bogus: 1}}}}\n",
        ["screen", "phase"]
      ),
      ("a catalogue", "plan: P\ncatalogues:\n  s: {bogus: 1}\n", PlanLoader.catalogueKeys),
      ("the privacy", "plan: P\nprivacy: {bogus: 1}\n", PlanLoader.privacyKeys),
      ("the consent", "plan: P\nconsent: {bogus: 1}\n", PlanLoader.consentKeys),
      (
        "a catalogue call", "plan: P\ncatalogues:\n  s: {calls: {c: {bogus: 1}}}\n",
        PlanLoader.catalogueEntryKeys
      ),
      (
        "a catalogue method", "plan: P\ncatalogues:\n  s: {methods: {identify: {bogus: 1}}}\n",
        PlanLoader.catalogueEntryKeys.filter { $0 != "method" }
      ),
    ]
    let reference = PlanFormatReference.markdown
    for (place, yaml, listed) in places {
      let accepted = acceptedKeys(yaml)
      XCTAssertEqual(Set(accepted), Set(listed), place)
      for key in accepted {
        XCTAssertTrue(reference.contains("`\(key)`"), "the reference does not name `\(key)` (\(place))")
      }
    }
    let words =
      PlanSection.allCases.map(\.key) + ValueType.allCases.map(\.rawValue)
      + CallCondition.Phase.allCases.map(\.rawValue) + Severity.allCases.map(\.rawValue)
      + ViolationRule.allCases.map(\.rawValue) + ValueFormat.allCases.map(\.rawValue)
      + UnplannedCalls.allCases.map(\.rawValue) + ["none", "true", "false"]
    for word in words {
      XCTAssertTrue(reference.contains("`\(word)`"), "the reference does not name `\(word)`")
    }
    // Each section has its heading and example.
    for section in PlanSection.allCases {
      XCTAssertTrue(reference.contains("### \(section.key)\n"), section.key)
      XCTAssertTrue(reference.contains("```yaml\n\(section.key):\n"), section.key)
    }
  }

  func testEveryExampleOfTheReferenceLoads() throws {
    var blocks: [String] = []
    var current: [Substring]?
    for line in PlanFormatReference.markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "```yaml" {
        current = []
      } else if line == "```", let lines = current {
        blocks.append(lines.joined(separator: "\n") + "\n")
        current = nil
      } else {
        current?.append(line)
      }
    }
    // top level, properties, one per section, catalogues, journeys and consent
    XCTAssertEqual(blocks.count, 10)
    for block in blocks {
      let yaml: String
      if block.hasPrefix("plan:") {
        yaml = block
      } else if block.hasPrefix("properties:") {
        yaml =
          "plan: P\nactions:\n  example:\n"
          + block.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
      } else {
        yaml = "plan: P\n" + block
      }
      XCTAssertNoThrow(try PlanLoader.load(yaml: yaml, file: "example.yaml"), block)
    }
  }

  func testTheTerminalTextIsTheMarkdownWithoutFences() {
    let text = PlanFormatReference.text
    XCTAssertFalse(text.contains("```"))
    XCTAssertFalse(text.contains("\n### "))
    XCTAssertTrue(text.contains("\nPROPERTY CONSTRAINTS\n"))
    XCTAssertTrue(text.contains("\n    plan: Podcasts                  # required\n"))
    XCTAssertEqual(
      text.split(separator: "\n", omittingEmptySubsequences: false).count,
      PlanFormatReference.markdown.split(separator: "\n", omittingEmptySubsequences: false).count
        - 2 * PlanFormatReference.markdown.components(separatedBy: "```yaml").dropFirst().count + 1)
  }

  /// `tagscope help plan` is the reference: README links to it and keeps no copy to drift.
  func testReadmeLinksToHelpPlanAndHoldsNoCopy() throws {
    let readme = try Self.read("README.md")
    XCTAssertTrue(readme.contains("`tagscope help plan`"), "README does not point to tagscope help plan")
    XCTAssertFalse(readme.contains("### Top level"), "README holds a copy of the plan format")
    XCTAssertFalse(readme.contains("plan-format: begin"), "README holds a copy of the plan format")
  }
}
