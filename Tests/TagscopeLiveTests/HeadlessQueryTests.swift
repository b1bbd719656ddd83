import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeServer
import TagscopeTestSupport
import XCTest

/// `tagscope listen --headless --plan PLAN --junit FILE --json FILE`: the query API answers while
/// it runs, and when it stops (SIGTERM; here its stop hook) the session's reports are written.
final class HeadlessQueryTests: XCTestCase {
  func testHeadlessListenAnswersTheAPIAndWritesItsReportsWhenItStops() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "headless-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let junit = directory.appendingPathComponent("listen.xml")
    let json = directory.appendingPathComponent("listen.json")
    let options = ListenOptions(
      port: 0, recordPath: directory.appendingPathComponent("listen.jsonl").path, headless: true, quiet: true,
      junitPath: junit.path, jsonPath: json.path)
    let plan = try PlanLoader.load(yaml: QueryAPIHarness.plan, file: "shop.yaml")
    let boundPort = LockedArray<Int>()
    let stopping = LockedArray<Bool>()
    let runner = Task {
      try await ListenRunner.run(
        options, output: { _ in }, notices: { _ in }, ready: { boundPort.append($0) },
        stop: {
          while stopping.all.isEmpty { try? await Task.sleep(nanoseconds: 10_000_000) }
        },
        plan: plan)
    }
    while boundPort.all.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
    let port = boundPort.all[0]
    let native = try RawClient(port: port)
    native.send(#"{"format":"tagscope-recording","version":1,"app":"App","device":"sim"}"# + "\n")
    native.send(
      [recordLine(1, "screen", "home"), recordLine(2, "userAction", "addToCart")].joined(separator: "\n")
        + "\n")

    let waited = try apiGet(port: port, "wait?filter=\(queryValue("kind:action"))&timeout=60")
    XCTAssertEqual(waited.status, 200, waited.body)
    XCTAssertEqual(waited.names, ["addToCart"])
    let violations = try apiGet(port: port, "records?filter=has:violations")
    XCTAssertEqual(violations.names, ["addToCart"], "the plan's findings mark the API's timeline")
    XCTAssertEqual(try apiGet(port: port, "summary").json["withViolations"] as? Int, 1)

    stopping.append(true)
    _ = try await runner.value
    let report = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
    XCTAssertEqual(report["records"] as? Int, 2)
    XCTAssertEqual(
      (report["violations"] as? [[String: Any]])?.compactMap { $0["rule"] as? String }, ["missing-property"])
    XCTAssertEqual((report["sources"] as? [[String: Any]])?.first?["source"] as? String, "App@sim")
    let xml = try String(contentsOf: junit, encoding: .utf8)
    XCTAssertTrue(xml.hasPrefix("<?xml"), xml)
    XCTAssertTrue(xml.contains("failures=\"1\""), xml)
  }

  private func apiGet(port: Int, _ pathAndQuery: String) throws -> APIReply {
    let client = try RawClient(port: port)
    client.send("GET /tagscope/v1/\(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    guard let (status, body) = client.readResponse() else { throw POSIXError(.ECONNRESET) }
    return APIReply(status: status, body: body)
  }
}
