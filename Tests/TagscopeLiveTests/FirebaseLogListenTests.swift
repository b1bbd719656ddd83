import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import XCTest

@testable import TagscopeLive

/// `tagscope listen --headless --log firebase FILE --record OUT --plan PLAN`, in process: the log's
/// entries go through the same live session as the SDKs' requests — printed, recorded, checked
/// against the plan — and a bad event name is a plan violation under its record.
final class FirebaseLogListenTests: XCTestCase {
  static let plan = """
    plan: Thermostat
    events:
      preferred_temperature_changed:
        providers:
          firebase: {name: preferred_temperature_changed, params: [preference]}
    """

  func testALogFileIsRecordedAndCheckedAgainstThePlanLikeSDKCalls() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fblog-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("iphone.log")
    let real = try String(
      contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/firebase-log/ios-xcode-event.txt"),
      encoding: .utf8)
    let bad = """
      2022-10-10 09:11:15.000000-0500 AnalyticsExample[51031:8040698] 9.6.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, firebase_promo, {
          ga_event_origin (_o) = app;
      }

      """
    try Data((real + bad).utf8).write(to: log)
    let recording = directory.appendingPathComponent("out.jsonl")
    var options = ListenOptions(port: 0, recordPath: recording.path, headless: true)
    options.logs = [LogInput(format: .firebase, path: log.path)]
    let output = LockedArray<String>()
    let notices = LockedArray<String>()
    let plan = try PlanLoader.load(yaml: Self.plan, file: "thermostat.yaml")
    let statistics = try await ListenRunner.run(
      options, output: { output.append($0) }, notices: { notices.append($0) },
      stop: {
        while Self.recordLines(output.all).count < 3 { try? await Task.sleep(nanoseconds: 10_000_000) }
      }, plan: plan)
    // The fixture's line 3 confirms an earlier call (preference 3), recorded too (issue 44).
    XCTAssertEqual(statistics.accepted, 3)
    let lines = output.all.joined(separator: "\n").components(separatedBy: "\n")
    XCTAssertEqual(Self.recordLines(output.all).count, 3, "\(lines)")
    XCTAssertTrue(
      lines[0].contains(#"AnalyticsExample@iOS · iphone event "preferred_temperature_changed""#), lines[0])
    let violations = lines.filter { $0.hasPrefix("  ✗") }
    XCTAssertTrue(
      violations.contains {
        $0.contains("provider-rule") && $0.contains("firebase.event-name-reserved-prefix")
      },
      "\(violations)")
    XCTAssertTrue(
      violations.contains { $0.contains("unplanned-tag") && $0.contains("firebase_promo") }, "\(violations)")
    XCTAssertFalse(
      violations.contains { $0.contains("preferred_temperature_changed") }, "the planned event is clean")
    XCTAssertTrue(notices.all.contains("source connected: AnalyticsExample@iOS · iphone"), "\(notices.all)")
    XCTAssertTrue(
      notices.all.contains { $0.contains("reading the firebase log \(log.path)") }, "\(notices.all)")

    let records = try recordedRecords(recording)
    XCTAssertEqual(
      records.map(\.name),
      ["preferred_temperature_changed", "preferred_temperature_changed", "firebase_promo"])
    XCTAssertEqual(Set(records.map(\.source)), ["AnalyticsExample@iOS · iphone"])
    XCTAssertEqual(records[1].outputs.first?.calls.first?.parameters, ["preference": 7])
    XCTAssertEqual(records[2].outputs.first?.violations.map(\.rule), ["firebase.event-name-reserved-prefix"])
  }

  func testAMissingLogStopsListenWithAClearError() async throws {
    var options = ListenOptions(port: 0, headless: true)
    options.logs = [LogInput(format: .firebase, path: "/nonexistent/device.log")]
    do {
      _ = try await ListenRunner.run(options, output: { _ in }, notices: { _ in }, stop: {})
      XCTFail("a log that cannot be read must stop listen")
    } catch {
      XCTAssertEqual(
        "\(error)", "cannot read the firebase log /nonexistent/device.log: No such file or directory")
    }
  }

  static func recordLines(_ output: [String]) -> [String] {
    output.joined(separator: "\n").components(separatedBy: "\n").filter { !$0.isEmpty && !$0.hasPrefix("  ") }
  }
}
