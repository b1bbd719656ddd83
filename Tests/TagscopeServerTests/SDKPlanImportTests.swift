import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// A plan imported from a real Segment export (typewriter's telemetry plan, Public API rules as
/// typewriter v8 keeps them) judges what the official Python SDKs (Segment, RudderStack, Mixpanel,
/// PostHog) send to a real `listen`: of a conforming and a broken event, exactly the broken one is
/// flagged, at `properties.rawCommand` (where each SDK's message holds the event's properties) — at
/// `rawCommand` for Mixpanel, whose recorded call's parameters are the message's `properties`.
final class SDKPlanImportTests: XCTestCase {
  private let planFile = packageRoot.appendingPathComponent(
    "Tests/TaggingPlanImportTests/Fixtures/segment-real/typewriter-telemetry-plan.json"
  ).path

  /// `path`: where the violation is named, the property's place in the call `listen` records.
  private func check(
    sdk: String, provider: String, path: String = "properties.rawCommand", file: StaticString = #filePath,
    line: UInt = #line
  ) async throws {
    let imported = try PlanImporter.run(paths: [planFile], options: ImportOptions(provider: provider))
    let plan = try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml")
    let (server, collector) = try await startServer()
    let result = try runSDKClient("plan_check_client", port: server.port, arguments: [sdk])
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(result.status, 0, "\(sdk): \(result.output)", file: file, line: line)
    XCTAssertEqual(records.map(\.name), ["Command Help", "Command Help"], file: file, line: line)
    XCTAssertEqual(records.map { $0.outputs.first?.provider }, [provider, provider], file: file, line: line)
    var validator = PlanValidator(plan: plan)
    let found = records.map { record in validator.validate(record).filter { $0.provider == provider } }
    guard found.count == 2 else { return }
    XCTAssertEqual(found[0].map(\.message), [], file: file, line: line)
    XCTAssertEqual(found[1].map(\.rule), [.wrongType], "\(found[1].map(\.message))", file: file, line: line)
    XCTAssertTrue(
      found[1].first?.message.contains("parameter \(path) is an integer (42)") ?? false,
      "\(found[1].map(\.message))",
      file: file, line: line)
  }

  func testSegmentPythonSDKAgainstAnImportedTypewriterPlan() async throws {
    try await check(sdk: "segment", provider: "segment")
  }

  func testRudderStackPythonSDKAgainstTheSamePlanImportedForRudderStack() async throws {
    try await check(sdk: "rudderstack", provider: "rudderstack")
  }

  func testMixpanelPythonSDKAgainstTheSamePlanImportedForMixpanel() async throws {
    try await check(sdk: "mixpanel", provider: "mixpanel", path: "rawCommand")
  }

  func testPostHogPythonSDKAgainstTheSamePlanImportedForPostHog() async throws {
    try await check(sdk: "posthog", provider: "posthog")
  }
}
