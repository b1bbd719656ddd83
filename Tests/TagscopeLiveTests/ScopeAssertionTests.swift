import Foundation
import TagscopeClient
import TagscopeClientTesting
import TagscopeTestSupport
import XCTest

/// Issue 48: `TagscopeClientTesting`'s XCTest assertions against a real `listen` with a plan: a
/// clean scope records no failure and gives the body's result; a scope with violations records
/// one failure per violation at the caller's line, with the violation's tag, rule and message; a
/// failed check records one failure naming its records. (An error of the body is thrown as
/// `scope(_:source:_:)`'s is: both run through `scoped(_:source:_:)`, which ScopeClientTests checks.)
final class ScopeAssertionTests: XCTestCase {
  struct Failure {
    var description: String
    var file: String
    var line: Int
  }

  private var capturing = false
  private var captured: [Failure] = []

  #if canImport(Darwin)
    func expectFailures(_ body: () async throws -> Void) async rethrows -> [Failure]? {
      XCTExpectFailure("the assertions under test fail")  // for the rest of the test
      try await body()
      return nil
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      guard capturing else {
        return super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
      captured.append(Failure(description: description, file: filePath, line: lineNumber))
    }

    func expectFailures(_ body: () async throws -> Void) async rethrows -> [Failure]? {
      capturing = true
      defer {
        capturing = false
        captured = []
      }
      try await body()
      return captured
    }
  #endif

  private func client(_ listen: QueryAPIHarness) -> TagscopeClient {
    TagscopeClient(baseURL: URL(string: "http://127.0.0.1:\(listen.server.port)")!)
  }

  func testACleanScopeRecordsNoFailureAndGivesTheBodysResult() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let tagscope = client(listen)
    // Any failure recorded here fails this test.
    let seqs = try await tagscope.assertScope("clean") {
      try listen.send([recordLine(1, "screen", "home"), recordLine(2, "screen", "cart")])
      return try await tagscope.wait(for: "kind:screen", count: 2, scope: "clean").map(\.seq)
    }
    try await tagscope.assertChecks(
      .exactly(2, filter: "kind:screen"), .inOrder(["home", "cart"]), scope: "clean")
    XCTAssertEqual(seqs, [1, 2])
  }

  func testEachViolationAndEachFailedCheckFailsAtTheCallersLine() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let tagscope = client(listen)
    var scopeLine = 0
    var checkLine = 0
    let failures = try await expectFailures {
      scopeLine = #line + 1
      let seqs = try await tagscope.assertScope("checkout") {
        try listen.send([recordLine(3, "userAction", "addToCart"), recordLine(4, "event", "surprise")])
        return try await tagscope.wait(for: "name:surprise", scope: "checkout").map(\.seq)
      }
      XCTAssertEqual(seqs, [4], "the body's result is returned despite the violations")
      checkLine = #line + 1
      try await tagscope.assertChecks(.exactly(1, filter: "name:addToCart"), .noUnplanned, scope: "checkout")
    }
    guard let failures else { return }  // Darwin: XCTExpectFailure checked them
    XCTAssertEqual(failures.map(\.line), [scopeLine, scopeLine, checkLine])
    XCTAssertEqual(Set(failures.map(\.file)), [#filePath])
    let texts = failures.map(\.description)
    XCTAssertTrue(texts[0].contains("scope 'checkout': #3 addToCart: missing-property"), texts[0])
    XCTAssertTrue(texts[1].contains("scope 'checkout': #4 surprise: unplanned-tag"), texts[1])
    XCTAssertTrue(
      texts[2].contains("scope 'checkout': unplanned: 1 unplanned tag(s): surprise (#4) (#4 surprise)"),
      texts[2])
  }
}
