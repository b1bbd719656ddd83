import Foundation
import TagscopeTestSupport
import XCTest

/// schemathesis (from PyPI, in the venv `scripts/test` creates) checks a real server against the
/// OpenAPI document it serves: every check, schema-valid and invalid parameters, undeclared
/// methods. `wait` is left out: its generated timeouts go up to 300 s (its tests are
/// ``QueryAPITests``).
final class QueryAPISchemaTests: XCTestCase {
  func testTheServerConformsToItsOpenAPIDocument() async throws {
    let schemathesis = packageRoot.appendingPathComponent(".venv/bin/schemathesis")
    guard FileManager.default.isExecutableFile(atPath: schemathesis.path) else {
      let message =
        "!!! SKIPPING schemathesis: \(schemathesis.path) is missing. Create it with: scripts/test "
        + "(ensure_python_sdks), or python3 -m venv .venv && .venv/bin/pip install schemathesis"
      print(message)
      throw XCTSkip(message)
    }
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    try listen.send([
      recordLine(1, "screen", "home"), recordLine(2, "userAction", "addToCart"),
      recordLine(3, "screen", "cart"),
    ])
    XCTAssertEqual(try listen.request("wait?count=3").status, 200)

    let base = "http://127.0.0.1:\(listen.server.port)"
    let process = Process()
    process.executableURL = schemathesis
    process.arguments = [
      "run", base + "/tagscope/v1/openapi.json", "--url", base, "--checks", "all",
      "--exclude-path", "/tagscope/v1/wait", "--max-examples", "50", "--seed", "1", "--no-color",
      "--request-timeout", "10",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["NO_PROXY"] = "*"
    environment["no_proxy"] = "*"
    environment["SCHEMATHESIS_HOOKS"] = nil
    process.environment = environment
    // Its example database goes to a directory of its own, not the package's.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "schemathesis-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    process.currentDirectoryURL = scratch
    let (status, output) = try runToEnd(process)
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains("Selected: 9/10") && output.contains("Tested: 9"), output)
  }
}
