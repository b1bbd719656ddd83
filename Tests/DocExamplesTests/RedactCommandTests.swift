import Foundation
import XCTest

/// `tagscope redact IN -o OUT` run as a user runs it (the built binary), every file inside the
/// test's own temporary folder: its exit statuses, `--force`, `--salt`, and a line that is not
/// JSON (scanned as plain text and named on standard error, never copied with its personal data).
final class RedactCommandTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "redact-command-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private static let header =
    #"{"format":"tagscope-recording","version":1,"app":"A","started":"2026-11-21T10:00:00.000Z"}"#
  private static let personal =
    #"{"seq":1,"time":"2026-11-21T10:00:01.000Z","kind":"userAction","name":"signUp","#
    + #""properties":{"email":"jo.smith@example.com","ip":"203.0.113.7"},"context":{"history":[]},"outputs":[]}"#

  private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  private func write(_ lines: [String], to name: String) throws -> String {
    let path = path(name)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  private func read(_ path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
  }

  /// The files in the test's folder, sorted (no partial file is left behind).
  private func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  func testAMissingInputExitsWithTwoAndWritesNothing() throws {
    let result = try BuiltProducts.run(["redact", path("absent.jsonl"), "-o", path("out.jsonl")])
    XCTAssertEqual(result.status, 2, result.error)
    XCTAssertTrue(result.error.contains("absent.jsonl cannot be read"), result.error)
    XCTAssertEqual(try files(), [])
  }

  func testAnExistingOutputIsReplacedOnlyWithForce() throws {
    let input = try write([Self.header, Self.personal], to: "in.jsonl")
    let output = try write(["kept"], to: "out.jsonl")
    let refused = try BuiltProducts.run(["redact", input, "-o", output, "--salt", "s"])
    XCTAssertEqual(refused.status, 2, refused.error)
    XCTAssertTrue(refused.error.contains("--force"), refused.error)
    XCTAssertEqual(try read(output), "kept\n")
    XCTAssertEqual(try files(), ["in.jsonl", "out.jsonl"])

    let forced = try BuiltProducts.run(["redact", input, "-o", output, "--salt", "s", "--force"])
    XCTAssertEqual(forced.status, 0, forced.error)
    let copy = try read(output)
    XCTAssertTrue(copy.hasPrefix(Self.header + "\n"), copy)
    XCTAssertFalse(copy.contains("jo.smith@example.com"), copy)
    XCTAssertTrue(copy.contains(#""email":"pii:email:"#), copy)
    XCTAssertTrue(forced.error.contains("2 lines, 2 values replaced (email 1, ip 1)"), forced.error)
    XCTAssertEqual(try files(), ["in.jsonl", "out.jsonl"])
  }

  func testTheSameSaltGivesTheSameCopyAndAnotherSaltAnotherOne() throws {
    let input = try write([Self.header, Self.personal], to: "in.jsonl")
    var copies: [String] = []
    for (index, salt) in ["one", "one", "two"].enumerated() {
      let output = path("out-\(index).jsonl")
      let result = try BuiltProducts.run(["redact", input, "-o", output, "--salt", salt])
      XCTAssertEqual(result.status, 0, result.error)
      copies.append(try read(output))
    }
    XCTAssertEqual(copies[0], copies[1])
    XCTAssertNotEqual(copies[0], copies[2])
    XCTAssertEqual(
      copies[0].replacingOccurrences(of: "pii:[a-z]+:[0-9a-f]{16}", with: "H", options: .regularExpression),
      copies[2].replacingOccurrences(of: "pii:[a-z]+:[0-9a-f]{16}", with: "H", options: .regularExpression),
      "only the hashes differ")
    // Without --salt, each run draws its own: two copies of one file cannot be linked.
    let random = try (0..<2).map { index in
      let output = path("random-\(index).jsonl")
      XCTAssertEqual(try BuiltProducts.run(["redact", input, "-o", output]).status, 0)
      return try read(output)
    }
    XCTAssertNotEqual(random[0], random[1])
  }

  /// A line of log text and a record whose value lost its quotes are scanned as plain text: their
  /// personal data is replaced, and standard error names each line.
  func testALineThatIsNotJSONIsScannedAsTextAndNamed() throws {
    let input = try write(
      [
        Self.header,
        "2026-11-21 10:00:02 signed up jo.smith@example.com from 203.0.113.7",
        Self.personal,
        #"{"seq":2,"name":"contact","properties":{"email": ann.lee@example.org}}"#,
        "plain words, nothing personal",
      ], to: "in.jsonl")
    let output = path("out.jsonl")
    let result = try BuiltProducts.run(["redact", input, "-o", output, "--salt", "s"])
    XCTAssertEqual(result.status, 0, result.error)
    let copy = try read(output).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(copy.count, 6, copy.joined(separator: "\n"))
    for value in ["jo.smith@example.com", "203.0.113.7", "ann.lee@example.org"] {
      XCTAssertFalse(
        copy.contains { $0.contains(value) }, "\(value) passed:\n\(copy.joined(separator: "\n"))")
    }
    XCTAssertTrue(copy[1].hasPrefix("2026-11-21 10:00:02 signed up pii:email:"), copy[1])
    XCTAssertTrue(copy[3].contains(#""email": pii:email:"#), copy[3])
    XCTAssertEqual(copy[4], "plain words, nothing personal")
    XCTAssertTrue(
      result.error.contains("\(input):2: not JSON, scanned as plain text (2 values replaced)"), result.error)
    XCTAssertTrue(
      result.error.contains("\(input):4: not JSON, scanned as plain text (1 value replaced)"), result.error)
    XCTAssertTrue(
      result.error.contains("\(input):5: not JSON, scanned as plain text (0 values replaced)"), result.error)
    XCTAssertFalse(result.error.contains("\(input):3:"), result.error)
    XCTAssertTrue(result.error.contains("5 lines, 5 values replaced"), result.error)
  }

  func testOnlyTheFirstTwentyPlainTextLinesAreNamedAndTheRestCounted() throws {
    let input = try write([Self.header] + (1...25).map { "log line \($0)" }, to: "in.jsonl")
    let result = try BuiltProducts.run(["redact", input, "-o", path("out.jsonl"), "--salt", "s"])
    XCTAssertEqual(result.status, 0, result.error)
    let named = result.error.split(separator: "\n").filter {
      $0.contains(": not JSON, scanned as plain text (")
    }
    XCTAssertEqual(named.count, 20, result.error)
    XCTAssertTrue(named.first?.hasPrefix("\(input):2:") == true, result.error)
    XCTAssertTrue(
      result.error.contains("\(input): 5 more lines not JSON, scanned as plain text"), result.error)
  }
}
