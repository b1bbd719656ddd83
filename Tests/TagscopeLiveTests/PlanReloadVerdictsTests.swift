import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import XCTest

/// The query API and the debugger read one plan check: the same verdicts before and after the
/// debugger's `a`/`y` adds an entry to the plan file and reloads it.
final class PlanReloadVerdictsTests: XCTestCase {
  func testTheAPIAndTheDebuggerSeeTheSameVerdictsBeforeAndAfterAPlanReload() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let planFile = folder.appendingPathComponent("shop.yaml").path
    try QueryAPIHarness.plan.write(toFile: planFile, atomically: true, encoding: .utf8)
    let harness = try await QueryAPIHarness.start(planFile: planFile)
    let checker = try XCTUnwrap(harness.session.checker)
    try harness.send([
      recordLine(1, "screen", "home"), recordLine(2, "screen", "checkout"),
      recordLine(3, "action", "addToCart", properties: #"{"sku":"A-1"}"#),
      recordLine(4, "screen", "checkout"),
    ])
    let arrived = try harness.request("wait?filter=\(queryValue("name:checkout"))&count=2&timeout=60")
    XCTAssertEqual(arrived.status, 200)
    harness.session.flush()

    let before = try verdicts(harness, checker)
    XCTAssertEqual(before.api, before.debugger)
    XCTAssertEqual(before.api.filter { $0.rule == "unplanned-tag" }.map(\.seq), [2, 4])

    // The debugger's `a` on the checkout screen drafts its entry; `y` adds it and reloads.
    var records: [Record] = []
    for position in 0..<harness.timeline.count {
      let record = try harness.timeline.record(at: position)
      if record.name == "checkout" { records.append(record) }
    }
    let draft = try checker.draftPlanEntry(from: records).get()
    let added = try checker.addPlanEntry(draft).get()
    XCTAssertTrue(added.contains("and checked the records again"), added)

    let after = try verdicts(harness, checker)
    XCTAssertEqual(after.api, after.debugger)
    XCTAssertEqual(after.api.filter { $0.rule == "unplanned-tag" }, [], "the API judges with the new plan")
    let coverage = try harness.request("coverage").json["coverage"] as? [String: Any]
    XCTAssertEqual(coverage?["planned"] as? Int, checker.monitor.coverage.planned)
    XCTAssertEqual(coverage?["passed"] as? Int, checker.monitor.coverage.stateCounts.passed)

    // Records after the reload: both see the new plan's verdict on them too.
    try harness.send([recordLine(5, "screen", "payment")])
    let later = try harness.request("wait?filter=\(queryValue("name:payment"))&timeout=60")
    XCTAssertEqual(later.status, 200)
    harness.session.flush()
    let last = try verdicts(harness, checker)
    XCTAssertEqual(last.api, last.debugger)
    XCTAssertEqual(last.api.map(\.seq), [5])
    try await harness.stop()
  }

  private struct Verdict: Hashable {
    var seq: Int
    var rule: String
  }

  /// The plan violations as the query API lists them and as the debugger's Providers pane reads
  /// them, record by record.
  private func verdicts(_ harness: QueryAPIHarness, _ checker: PlanChecker) throws
    -> (api: [Verdict], debugger: [Verdict])
  {
    let reply = try harness.request("violations")
    XCTAssertEqual(reply.status, 200)
    let listed = reply.json["violations"] as? [[String: Any]] ?? []
    let api = listed.map { Verdict(seq: $0["seq"] as? Int ?? -1, rule: $0["rule"] as? String ?? "") }
    var debugger: [Verdict] = []
    for position in 0..<harness.timeline.count {
      let seq = Int(try harness.timeline.record(at: position).seq)
      for finding in checker.planFindings(at: position) {
        debugger.append(Verdict(seq: seq, rule: finding.rule.rawValue))
      }
    }
    return (api, debugger)
  }
}
