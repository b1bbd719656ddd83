import Foundation
import TagscopeTestSupport
import XCTest

/// The pytest example of TagscopeClient's catalog (UI tests) (scripts/sdk-clients/test_tagscope_api.py) run by pytest from `.venv`
/// against a real listen: the official Segment SDK sends while the test waits on the query API.
/// Its tests fork a child process: the thread sanitizer pass skips them, as it does SDKClientTests.
final class PytestExampleTests: XCTestCase {
  func testReadmesPytestExampleRunsAgainstARealListen() async throws {
    let python = packageRoot.appendingPathComponent(".venv/bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
      throw XCTSkip("!!! SKIPPING the pytest example: \(python.path) is missing (scripts/test creates it)")
    }
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    let process = Process()
    process.executableURL = python
    process.arguments = [
      "-m", "pytest", "-q", "-p", "no:cacheprovider",
      packageRoot.appendingPathComponent("scripts/sdk-clients/test_tagscope_api.py").path,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["TAGSCOPE_URL"] = "http://127.0.0.1:\(listen.server.port)"
    environment["NO_PROXY"] = "*"
    environment["no_proxy"] = "*"
    process.environment = environment
    let (status, output) = try runToEnd(process)
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains("2 passed"), output)
    XCTAssertEqual(listen.timeline.count, 1, "the SDK's one track is recorded (and a reset marker)")
  }

  /// The Python block of TagscopeClient's catalog article on UI tests is the start of that file,
  /// line for line (the file adds a timeout test).
  func testTheArticlesPytestExampleIsTheFileItRuns() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/TagscopeClient/TagscopeClient.docc/UITests.md"),
      encoding: .utf8)
    let start = try XCTUnwrap(readme.range(of: "```python\n"))
    let end = try XCTUnwrap(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
    let block = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    let file = try String(
      contentsOf: packageRoot.appendingPathComponent("scripts/sdk-clients/test_tagscope_api.py"),
      encoding: .utf8
    ).split(separator: "\n").map(String.init)
    let code = Array(file.drop { $0.hasPrefix("\"\"\"") || !$0.hasPrefix("import") })
    XCTAssertEqual(Array(code.prefix(block.count)), block)
  }
}
