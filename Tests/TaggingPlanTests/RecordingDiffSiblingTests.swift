import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeDiff
import TagscopeRecording
import XCTest

/// Issue 42, item 7: `diff` was blind to removing a key while a sibling of the same shape remained
/// (`cd1, cd2 → cd1`: both were `<id>`; 20,000 → 10,000 keys: only the first 256 were compared), and
/// its Markdown passed `@mentions` through raw.
final class RecordingDiffSiblingTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The findings of `base` → `new`, one line each: change, provider, call, path, base, new.
  private func findings(_ base: [Record], _ new: [Record]) throws -> [String] {
    let outcome = DiffRunner.run(
      base: try writeRecording(base, named: "base.jsonl", in: directory),
      new: try writeRecording(new, named: "new.jsonl", in: directory), format: .text, failOn: [])
    return try XCTUnwrap(outcome.report).diff.findings.map { finding in
      [
        finding.change.rawValue, finding.provider ?? "-", finding.call ?? "-", finding.path ?? "-",
        finding.base ?? "-", finding.new ?? "-",
      ].joined(separator: " ")
    }
  }

  private func checkout(_ properties: Properties, calls: [CallDescription]) -> Record {
    record(
      1, .userAction, "checkout", properties, screen: "cart",
      outputs: [ProviderOutput(provider: "firebase", status: .sent, calls: calls)])
  }

  /// Numbered keys (`cd1`, `p2`, nested `dims.d1`) are keys of their own: one removed, added or of
  /// another type while its siblings remain is reported by its exact name.
  func testANumberedKeyRemovedBesideASiblingIsReported() throws {
    let base = checkout(
      ["cd1": "a", "cd2": "b", "dims": ["d1": 1, "d2": 2]],
      calls: [
        CallDescription(method: "logEvent", name: "purchase", parameters: ["cd1": "a", "cd2": "b", "p2": 2])
      ])
    let new = checkout(
      ["cd1": "a", "dims": ["d1": 1, "d2": "two"]],
      calls: [
        CallDescription(method: "logEvent", name: "purchase", parameters: ["cd1": "a", "p2": "2", "p3": 3])
      ])
    XCTAssertEqual(
      try findings([base], [new]),
      [
        "property-removed - - cd2 string -",
        "property-type - - dims.d2 number string",
        "param-removed firebase purchase cd2 string -",
        "param-type firebase purchase p2 number string",
        "param-added firebase purchase p3 - number",
      ])
  }

  /// 20,000 → 10,000 keys: past the 256 paths compared by name, the count of keys not compared is
  /// a change of its own, for properties and parameters; as deep nesting past the depth limit.
  func testKeysPastTheLimitsAreCountedNotIgnored() throws {
    func wide(_ count: Int) -> Properties {
      Properties((0..<count).map { ("k\($0)x", PropertyValue.int($0)) })
    }
    func deep(_ leaves: Int) -> PropertyValue {
      var value = PropertyValue.object(
        Properties((0..<leaves).map { ("leaf\($0)x", PropertyValue.bool(true)) }))
      for _ in 0..<PathTypes.depthLimit { value = .object(["inner": value]) }
      return value
    }
    let base = checkout(
      wide(20_000),
      calls: [CallDescription(method: "logEvent", name: "purchase", parameters: ["tree": deep(3)])])
    let new = checkout(
      wide(10_000),
      calls: [CallDescription(method: "logEvent", name: "purchase", parameters: ["tree": deep(2)])])
    let limit = 20_000 - PathTypes.pathLimit
    let text = DiffRunner.run(
      base: try writeRecording([base], named: "base.jsonl", in: directory),
      new: try writeRecording([new], named: "new.jsonl", in: directory), format: .text, failOn: []
    ).output
    XCTAssertTrue(text.contains("· property-uncompared property keys past the first 256 paths"), text)
    XCTAssertEqual(
      try findings([base], [new]),
      [
        "property-uncompared - - … \(limit) \(limit - 10_000)",
        "param-uncompared firebase purchase … 4 3",
      ])
    XCTAssertEqual(try findings([base], [base]), [])
  }

  /// Calls with numbered names (`step_001`, `step_002`) are calls of their own outside identity
  /// records; in an identify record an id-shaped name is still the user (mParticle's `login`).
  func testANumberedCallRemovedBesideASiblingIsReported() throws {
    func steps(_ names: [String]) -> Record {
      checkout([:], calls: names.map { CallDescription(method: "logEvent", name: $0, parameters: ["n": 1]) })
    }
    XCTAssertEqual(
      try findings([steps(["step_001", "step_002", "cd3"])], [steps(["step_001"])]),
      ["call-removed firebase cd3 - - -", "call-removed firebase step_002 - - -"])
    XCTAssertEqual(
      try findings([steps(["step_001"])], [steps(["step_001", "step_002"])]),
      ["call-added firebase step_002 - - -"])
    func login(_ user: String) -> Record {
      record(
        1, .identify, "login", screen: "login",
        outputs: [sent("mparticle", user, ["customerid": .string(user)], method: "login")])
    }
    XCTAssertEqual(try findings([login("user-1334")], [login("user-2041")]), [])
  }

  /// Every recorded text in the Markdown report goes through one escaper: no mention, issue
  /// reference, link, image, HTML, code span, heading, quote, list or extra table cell comes out.
  func testMarkdownEscapesEveryRecordedText() throws {
    let hostile = "@octocat #123 org/repo#7 `code` <img src=x> [x](https://evil.test) **b** www.evil.test $x$"
    let names = [hostile, "> quoted", "# heading", "- item", "a|b", "line\nbreak"]
    let base = try writeRecording([], named: "base.jsonl", in: directory)
    let new = try writeRecording(
      names.enumerated().map { index, name in
        record(UInt64(index), .userAction, name, outputs: [sent("firebase", "@team #1")])
      }, named: "new.jsonl", in: directory)
    let markdown = DiffRunner.run(base: base, new: new, format: .markdown, failOn: []).output
    let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| ➕") }
    XCTAssertEqual(rows.count, names.count, markdown)
    for row in rows {
      let pipes = row.components(separatedBy: "|").count - row.components(separatedBy: "\\|").count
      XCTAssertEqual(pipes, 5, "a row of 4 cells: \(row)")
    }
    let table = rows.joined(separator: "\n")
    for raw in [
      "@octocat", "@team", "#123", "#7", "#1", "https://", "www.", "<img", "](", "`code`", "**", "$x$",
    ] {
      XCTAssertFalse(table.contains(raw), "\(raw) passed through: \(table)")
    }
    XCTAssertEqual(markdown.split(separator: "\n").filter { $0.hasPrefix(">") || $0.hasPrefix("# ") }, [])
    XCTAssertTrue(table.contains("line\\\\nbreak"), table)
    XCTAssertEqual(
      MarkdownText.escape("@a #1 <b> [c](d) > e"),
      "@&#8288;a \\#&#8288;1 &lt;b&gt; \\[c\\]\\(d\\) &gt; e")
  }

  /// The text report shows the same names with control, bidi and line-break characters visible.
  func testTextReportShowsControlAndBidiCharactersVisibly() throws {
    let base = try writeRecording([], named: "base.jsonl", in: directory)
    let name = "pay\u{202E}lap\u{1B}[2Jx\nfake ✗ removed"
    let new = try writeRecording(
      [record(1, .userAction, name, outputs: [sent("fire\u{200B}base", "k\u{07}")])], named: "new.jsonl",
      in: directory)
    let text = DiffRunner.run(base: base, new: new, format: .text, failOn: []).output
    XCTAssertFalse(text.unicodeScalars.contains { [0x1B, 0x07, 0x202E, 0x200B].contains($0.value) }, text)
    XCTAssertTrue(text.contains("pay<U+202E>lap\\e[2Jx\\nfake"), text)
  }
}
