import Foundation
import XCTest

/// `validate -o FILE` writes the report there as `plan codegen -o` and `plan import -o` write theirs;
/// a plan and a recording given in each other's place are said so (exit 2, the help's code for bad
/// input) in validate and every other command that takes one or the other, instead of a YAML or
/// JSON error that does not say why.
final class ValidateArgumentsTests: XCTestCase {
  private var directory: URL!
  private var plan: String!
  private var recording: String!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "validate-args-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    plan = path("plan.yaml")
    try Data("# The plan\nplan: Tiny\nactions:\n  play: {}\n".utf8).write(to: URL(fileURLWithPath: plan))
    recording = path("run.jsonl")
    let lines = [
      #"{"format":"tagscope-recording","version":1,"app":"A","started":"2026-11-21T10:00:00.000Z"}"#,
      #"{"seq":1,"time":"2026-11-21T10:00:01.000Z","kind":"userAction","name":"play","outputs":[]}"#,
    ]
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: recording))
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  private func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  func testOutputWritesTheReportThereInEveryFormat() throws {
    let expected = try BuiltProducts.run(["validate", "--plan", plan, recording])
    XCTAssertEqual(expected.status, 0, expected.error)
    let text = path("report.txt")
    let written = try BuiltProducts.run(["validate", "--plan", plan, recording, "-o", text])
    XCTAssertEqual(written.status, 0, written.error)
    XCTAssertEqual(written.output, "")
    XCTAssertTrue(contents(text)?.contains("plan Tiny") ?? false, contents(text) ?? "no report")
    // An existing report is replaced, in another format, with --output.
    let json = try BuiltProducts.run([
      "validate", "--plan", plan, recording, "--format", "json", "--output", text,
    ])
    XCTAssertEqual(json.status, 0, json.error)
    let data = try XCTUnwrap(FileManager.default.contents(atPath: text))
    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: data))
    let html = try BuiltProducts.run([
      "validate", "--plan", plan, recording, "--format", "html", "-o", path("r.html"),
    ])
    XCTAssertEqual(html.status, 0, html.error)
    XCTAssertTrue(contents(path("r.html"))?.contains("<html") ?? false)
    // No temporary file is left beside them.
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasPrefix(".")
    }
    XCTAssertEqual(left, [])
  }

  func testOutputThatCannotBeUsedIsRefusedAndNothingIsWrittenForAPlanThatDoesNotLoad() throws {
    let folder = path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let link = path("link.txt")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path("target.txt"))
    for target in [folder, link] {
      let outcome = try BuiltProducts.run(["validate", "--plan", plan, recording, "-o", target])
      XCTAssertEqual(outcome.status, 2, outcome.error)
      XCTAssertEqual(outcome.error.split(separator: "\n").count, 1, outcome.error)
      XCTAssertTrue(outcome.error.hasPrefix("tagscope: \(target) "), outcome.error)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("target.txt")))
    let report = path("never.txt")
    let missing = try BuiltProducts.run(["validate", "--plan", path("missing.yaml"), recording, "-o", report])
    XCTAssertEqual(missing.status, 2, missing.error)
    XCTAssertFalse(FileManager.default.fileExists(atPath: report))
  }

  func testAPlanAndARecordingSwappedAreSaidSo() throws {
    let swapped = try BuiltProducts.run(["validate", "--plan", recording, plan])
    XCTAssertEqual(swapped.status, 2, swapped.error)
    XCTAssertEqual(
      swapped.error,
      "tagscope: \(recording!) looks like a recording (its first line is a tagscope-recording header), not a plan; usage: tagscope validate --plan PLAN RECORDING…\n"
    )
    let twoPlans = try BuiltProducts.run(["validate", "--plan", plan, plan])
    XCTAssertEqual(twoPlans.status, 2, twoPlans.error)
    XCTAssertTrue(
      twoPlans.error.contains("\(plan!) looks like a YAML tagging plan, not a recording"), twoPlans.error)
    // Every other command taking a plan or a recording says the same.
    for (arguments, named) in [
      (["replay", plan!], plan!), (["replay", recording!, "--plan", recording!], recording!),
      (["diff", recording!, plan!], plan!), (["plan", "infer", plan!], plan!),
      (["plan", "codegen", recording!, "-o", path("out")], recording!),
      (["listen", "--headless", "--port", "0", "--plan", recording!], recording!),
      (["demo", "--count", "1", "--plan", recording!], recording!),
    ] {
      let outcome = try BuiltProducts.run(arguments)
      XCTAssertEqual(outcome.status, 2, "\(arguments): \(outcome.error)")
      XCTAssertTrue(
        outcome.error.hasPrefix("tagscope: \(named) looks like a"), "\(arguments): \(outcome.error)")
      XCTAssertTrue(
        outcome.error.contains("; usage: tagscope \(arguments[0])"), "\(arguments): \(outcome.error)")
    }
  }

  /// Every command whose help gives its exit statuses gives the usage error's too (64), which is
  /// what a bad flag returns (``CommandUsageTests``), `plan import`'s too.
  func testEveryExitStatusListNamesTheUsageCode() throws {
    var listed = 0
    for path in try CommandTree.paths() {
      let help = try BuiltProducts.run(path + ["--help"]).output
      let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      guard words.contains("Exit status") else { continue }
      listed += 1
      XCTAssertTrue(words.contains("exit 64"), "\(path): \(words)")
    }
    XCTAssertGreaterThanOrEqual(listed, 4)
    let qa = try BuiltProducts.run(["help", "qa"]).output.split(whereSeparator: \.isWhitespace).joined(
      separator: " ")
    XCTAssertTrue(qa.contains("2 on bad input, 64 (with the usage) on arguments wrong as written"), qa)
  }

  /// The exit codes the help gives are the ones the command returns: 2 for bad input, 64 for
  /// arguments wrong as written.
  func testValidatesExitCodesAreTheHelps() throws {
    let help = try BuiltProducts.run(["validate", "--help"]).output
    let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertTrue(words.contains("2 for bad input"), words)
    XCTAssertTrue(words.contains("exit 64"), words)
    XCTAssertEqual(try BuiltProducts.run(["validate", "--plan", plan, recording, "--bogus"]).status, 64)
    XCTAssertEqual(try BuiltProducts.run(["validate", recording]).status, 64)
  }
}
