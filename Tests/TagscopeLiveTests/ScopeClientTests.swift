import Foundation
import TagscopeClient
import TagscopeServer
import TagscopeTestSupport
import XCTest

/// Issue 48: TagscopeClient's scope API and `tagscope help uitests`'s Python example, each
/// against a real `listen`: the scope helper passes a clean scope and throws the violations'
/// messages of one that is not; `expect` throws what failed.
final class ScopeClientTests: XCTestCase {
  private func client(_ listen: QueryAPIHarness) -> TagscopeClient {
    TagscopeClient(baseURL: URL(string: "http://127.0.0.1:\(listen.server.port)")!)
  }

  func testTheScopeHelperPassesACleanScopeAndThrowsTheViolationsOfAnother() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let tagscope = client(listen)
    let seqs = try await tagscope.scope("clean", source: "App@sim") {
      try listen.send([recordLine(1, "screen", "home"), recordLine(2, "screen", "cart")])
      return try await tagscope.wait(for: "kind:screen", count: 2, scope: "clean").map(\.seq)
    }
    XCTAssertEqual(seqs, [1, 2])
    let clean = try await tagscope.check(
      [.exactly(2, filter: "kind:screen"), .inOrder(["home", "cart"])], scope: "clean")
    XCTAssertTrue(clean.passed, "\(clean)")

    do {
      try await tagscope.scope("checkout") {
        try listen.send([recordLine(3, "userAction", "addToCart"), recordLine(4, "event", "surprise")])
        try await tagscope.wait(for: "name:surprise", scope: "checkout")
      }
      XCTFail("the scope's violations throw")
    } catch TagscopeClientError.scopeFailed(let verdict) {
      XCTAssertEqual(verdict.scope, "checkout")
      XCTAssertEqual(verdict.records, 2)
      XCTAssertEqual(verdict.violations?.map(\.rule), ["missing-property", "unplanned-tag"])
      let text = "\(TagscopeClientError.scopeFailed(verdict))"
      XCTAssertTrue(text.hasPrefix("scope 'checkout': 2 record(s), 2 violation(s)\n  #3 addToCart: "), text)
    }
    let page = try await tagscope.records(scope: "checkout")
    XCTAssertEqual(page.records.map(\.seq), [3, 4])
    let summary = try await tagscope.summary(scope: "clean")
    XCTAssertEqual(summary.records, 2)
    let violations = try await tagscope.violations(scope: "checkout")
    XCTAssertEqual(violations.count, 2)

    do {
      try await tagscope.expect(.exactly(1, filter: "name:addToCart"), .noUnplanned, scope: "checkout")
      XCTFail("an unplanned tag fails the check")
    } catch TagscopeClientError.checkFailed(let report) {
      XCTAssertEqual(report.failures.map(\.check), ["unplanned"])
      XCTAssertEqual(report.failures.first?.records.map(\.name), ["surprise"])
      XCTAssertEqual(
        "\(report)", "scope 'checkout': unplanned: 1 unplanned tag(s): surprise (#4) (#4 surprise)")
    }
    // An error of the body is thrown as it is, the scope ended all the same.
    struct Tapped: Error {}
    do {
      try await tagscope.scope("tap") { throw Tapped() }
      XCTFail("the body's error is thrown")
    } catch is Tapped {}
    do {
      try await tagscope.endScope("tap")
      XCTFail("already ended")
    } catch TagscopeClientError.refused(let status, _) {
      XCTAssertEqual(status, 404)
    }
  }

  /// The Python example of `tagscope help uitests`, run by python3 (standard library only)
  /// against a real listen: it passes without a plan, and fails with the violation's message
  /// when the plan does not know the app's event.
  func testTheHelpPagesPythonScopeExampleRunsAgainstARealListen() async throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scope-py-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let script = scratch.appendingPathComponent("scope_example.py")
    try QueryAPIExamples.python.write(to: script, atomically: true, encoding: .utf8)

    func run(_ listen: QueryAPIHarness) throws -> (Int32, String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", "-I", script.path]
      var environment = ProcessInfo.processInfo.environment
      environment["TAGSCOPE_URL"] = "http://127.0.0.1:\(listen.server.port)"
      environment["NO_PROXY"] = "*"
      environment["no_proxy"] = "*"
      process.environment = environment
      process.currentDirectoryURL = scratch
      return try runToEnd(process)
    }
    let planless = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await planless.stop() }
    let (passed, output) = try run(planless)
    XCTAssertEqual(passed, 0, output)
    XCTAssertTrue(output.contains("checkout passed"), output)
    XCTAssertEqual(try planless.request("records?scope=checkout").names, ["Order Completed"])

    let planned = try await QueryAPIHarness.start()
    addTeardownBlock { try? await planned.stop() }
    let (failed, message) = try run(planned)
    XCTAssertEqual(failed, 1, message)
    XCTAssertTrue(message.contains("ScopeFailed: #"), message)
    XCTAssertTrue(message.contains("Order Completed"), message)
  }
}
