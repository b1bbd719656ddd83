import Foundation
import TagscopeTestSupport
import XCTest

/// Issue 48: a recording `listen` wrote with two UI test scopes, validated by `tagscope validate
/// --scope` (one scope's records, cited at their lines in the original recording) and as JUnit
/// with one testsuite per scope.
final class ScopeValidateTests: XCTestCase {
  private func tagscope(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = packageRoot.appendingPathComponent(".build/debug/tagscope")
    process.arguments = arguments
    return try runToEnd(process)
  }

  func testValidateSplitsARecordingByItsScopes() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("scopes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let plan = scratch.appendingPathComponent("shop.yaml")
    try QueryAPIHarness.plan.write(to: plan, atomically: true, encoding: .utf8)

    try listen.send([recordLine(1, "userAction", "addToCart")])
    XCTAssertEqual(try listen.request("wait?filter=name:addToCart").status, 200)
    XCTAssertEqual(try listen.request("scope/begin?name=first", method: "POST").status, 200)
    try listen.send([
      recordLine(2, "userAction", "addToCart", properties: #"{"sku":"A"}"#), recordLine(3, "screen", "cart"),
    ])
    XCTAssertEqual(try listen.request("wait?scope=first&count=2").status, 200)
    XCTAssertEqual(try listen.request("scope/end?name=first", method: "POST").status, 200)
    XCTAssertEqual(try listen.request("scope/begin?name=second", method: "POST").status, 200)
    try listen.send([recordLine(4, "screen", "home"), recordLine(5, "userAction", "addToCart")])
    XCTAssertEqual(try listen.request("wait?scope=second&count=2").status, 200)
    XCTAssertEqual(try listen.request("scope/end?name=second", method: "POST").status, 200)
    listen.session.flush()
    let recording = listen.recording.path
    let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
    let fifth = try XCTUnwrap(lines.firstIndex { $0.contains(#""seq":5"#) }) + 1

    let first = try tagscope(["validate", "--plan", plan.path, "--scope", "first", recording])
    XCTAssertEqual(
      first.status, 0, "the unscoped addToCart #1 without its sku is not the scope's: \(first.output)")
    let second = try tagscope([
      "validate", "--plan", plan.path, "--scope", "second", "--format", "json", recording,
    ])
    XCTAssertEqual(second.status, 1, second.output)
    let json = try XCTUnwrap(second.output.range(of: "{").map { String(second.output[$0.lowerBound...]) })
    let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let violations = report["violations"] as? [[String: Any]] ?? []
    XCTAssertEqual(violations.map { $0["seq"] as? Int }, [5])
    XCTAssertEqual(violations.first?["file"] as? String, recording, "cited in the original recording")
    XCTAssertEqual(violations.first?["line"] as? Int, fifth)
    let whole = try tagscope(["validate", "--plan", plan.path, "--format", "json", recording])
    XCTAssertEqual(whole.status, 1)
    XCTAssertEqual(whole.output.components(separatedBy: #""rule":"missing-property""#).count - 1, 2)
    XCTAssertTrue(
      whole.output.contains(#""problems":[]"#),
      "the scope lines read as drop markers of nothing: \(whole.output)")

    let junit = try tagscope([
      "validate", "--plan", plan.path, "--scope", "*", "--format", "junit", recording,
    ])
    XCTAssertEqual(junit.status, 1, junit.output)
    XCTAssertEqual(junit.output.components(separatedBy: "<testsuite name=").count - 1, 2, junit.output)
    XCTAssertTrue(junit.output.contains(#"<testsuite name="scope first: "#), junit.output)
    XCTAssertTrue(junit.output.contains(#"<testsuite name="scope second: "#), junit.output)
    let suites = junit.output.components(separatedBy: "<testsuite name=\"scope ")
    XCTAssertTrue(
      suites.count == 3 && !suites[1].contains("<failure") && suites[2].contains("<failure"), junit.output)

    let unknown = try tagscope(["validate", "--plan", plan.path, "--scope", "third", recording])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(
      unknown.output.contains("no scope 'third' in \(recording) (its scopes: first, second)"), unknown.output)
    let several = try tagscope([
      "validate", "--plan", plan.path, "--scope", "first", "--scope", "second", recording,
    ])
    XCTAssertEqual(several.status, 2)
    XCTAssertTrue(several.output.contains("need --format junit"), several.output)
  }
}
