import Foundation
import TagscopeTestSupport
import XCTest

/// Issue 46: `tagscope validate` over a recording `listen` wrote with the app's in-app records and
/// the SDK's wire records gains a delivery section (text and JSON): the count of calls per state
/// and per provider, and each call sent by the app that never reached its vendor at its place.
final class ValidateDeliveryTests: XCTestCase {
  private var scratch: URL!

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

  private func tagscope(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = packageRoot.appendingPathComponent(".build/debug/tagscope")
    process.arguments = arguments
    return try runToEnd(process)
  }

  /// A call lost to an app restart, one delivered, one never sent before the recording's end, and
  /// one of a provider no wire source shows.
  private func recording(wire: Bool = true) throws -> String {
    let lines =
      [
        #"{"format":"tagscope-recording","version":1,"app":"tagscope listen"}"#,
        inApp(seq: 1, second: 1, run: "r1", calls: [("segment", "Lost")]),
        inApp(
          seq: 2, second: 2, run: "r2",
          calls: [("segment", "Delivered"), ("segment", "Never"), ("braze", "Elsewhere")]),
      ]
      + (wire
        ? [
          #"{"seq":3,"time":"2026-11-21T10:00:03.000Z","kind":"event","name":"Delivered","source":"segment@127.0.0.1","raw":"","#
            + #""outputs":[{"provider":"segment","status":"sent","calls":[{"method":"track","name":"Delivered","#
            + #""parameters":{"type":"track","event":"Delivered","properties":{}}}]}]}"#
        ] : [])
    let url = scratch.appendingPathComponent("listen.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    let plan = scratch.appendingPathComponent("plan.yaml")
    try "plan: Shop\nversion: 1\n".write(to: plan, atomically: true, encoding: .utf8)
    return url.path
  }

  private func inApp(seq: Int, second: Int, run: String, calls: [(String, String)]) -> String {
    let outputs = calls.map { provider, name in
      #"{"provider":"\#(provider)","status":"sent","calls":[{"method":"track","name":"\#(name)","parameters":{}}]}"#
    }
    return
      #"{"seq":\#(seq),"time":"2026-11-21T10:00:0\#(second).000Z","kind":"event","name":"tap","source":"phone","#
      + #""run":"\#(run)","outputs":[\#(outputs.joined(separator: ","))]}"#
  }

  func testTheTextReportCountsEachStateAndPlacesEachLostCall() throws {
    let path = try recording()
    let plan = scratch.appendingPathComponent("plan.yaml").path
    let result = try tagscope(["validate", "--plan", plan, path])
    XCTAssertTrue(
      result.output.contains("delivery: 4 calls · 1 delivered · 2 lost · 1 noWireSource"), result.output)
    XCTAssertTrue(result.output.contains("  braze: 1 noWireSource"), result.output)
    XCTAssertTrue(result.output.contains("  segment: 1 delivered · 2 lost"), result.output)
    XCTAssertTrue(
      result.output.contains("\(path):2 (seq 1): segment Lost lost: the app restarted before it was sent"),
      result.output)
    XCTAssertTrue(
      result.output.contains("\(path):3 (seq 2): segment Never lost: the session ended before it was sent"),
      result.output)
  }

  func testTheJSONReportCarriesTheSection() throws {
    let path = try recording()
    let plan = scratch.appendingPathComponent("plan.yaml").path
    let result = try tagscope(["validate", "--plan", plan, "--format", "json", path])
    let json = try XCTUnwrap(result.output.range(of: "{").map { String(result.output[$0.lowerBound...]) })
    let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let delivery = try XCTUnwrap(report["delivery"] as? [String: Any], result.output)
    let counts = try XCTUnwrap(delivery["counts"] as? [String: Int])
    XCTAssertEqual(counts["delivered"], 1)
    XCTAssertEqual(counts["lost"], 2)
    XCTAssertEqual(counts["noWireSource"], 1)
    XCTAssertEqual(counts["queued"], 0)
    let problems = try XCTUnwrap(delivery["problems"] as? [[String: Any]])
    XCTAssertEqual(problems.map { $0["call"] as? String }, ["Lost", "Never"])
    XCTAssertEqual(problems.map { $0["line"] as? Int }, [2, 3])
    XCTAssertEqual(problems.map { $0["seq"] as? Int }, [1, 2])
    XCTAssertEqual(problems.first?["file"] as? String, path)
  }

  func testTheHTMLAndJUnitReportsCarryTheSection() throws {
    let path = try recording()
    let plan = scratch.appendingPathComponent("plan.yaml").path
    let html = try tagscope(["validate", "--plan", plan, "--format", "html", path]).output
    XCTAssertTrue(
      html.contains("<h2>Delivery <span class=\"muted\">(4 calls · 1 delivered · 2 lost · 1 noWireSource)"),
      html)
    XCTAssertTrue(html.contains("<tr><td>segment</td><td class=\"num\">1</td><td class=\"num\">2</td>"), html)
    XCTAssertTrue(html.contains("\(path):2 (seq 1): segment Lost lost"), html)
    let junit = try tagscope(["validate", "--plan", plan, "--format", "junit", path]).output
    XCTAssertTrue(
      junit.contains(
        "<property name=\"delivery\" value=\"4 calls · 1 delivered · 2 lost · 1 noWireSource\"/>"), junit)
    XCTAssertTrue(
      junit.contains("<system-out>sent by the app, never reached the vendor:\n\(path):2 (seq 1)"), junit)
    XCTAssertTrue(junit.contains("failures=\"1\""), "delivery adds no failure: \(junit)")
  }

  func testARecordingWithoutWireRecordsHasNoSection() throws {
    let path = try recording(wire: false)
    let plan = scratch.appendingPathComponent("plan.yaml").path
    let text = try tagscope(["validate", "--plan", plan, path])
    XCTAssertFalse(text.output.contains("delivery:"), text.output)
    let json = try tagscope(["validate", "--plan", plan, "--format", "json", path])
    XCTAssertFalse(json.output.contains(#""delivery""#), json.output)
  }
}
