import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// Real tracking plans, imported, meet what the official Python SDKs send through a real `listen`:
/// `tagscope validate` of the recording flags exactly the broken events, at the path where the
/// SDK's message holds the properties (the catalogue's `propertiesAt`).
final class ImportedPlanListenTests: XCTestCase {
  /// A fixture of the import tests (real plans, their sources in that folder's README).
  private func importFixture(_ name: String, provider: String? = nil) throws -> Plan {
    let path = packageRoot.appendingPathComponent("Tests/TaggingPlanImportTests/Fixtures/\(name)").path
    let imported = try PlanImporter.run(paths: [path], options: ImportOptions(provider: provider))
    return try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml")
  }

  /// Runs `script` against a real `listen` recording to a temporary file; returns the recording's
  /// records and `tagscope validate`'s violations of it against `plan`.
  private func listen(_ script: String, expecting count: Int, plan: Plan) async throws -> (
    [Record], [PlanViolation]
  ) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "plan-listen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("listen.jsonl")
    let timeline = try Timeline.live(recordingTo: url, header: RecordingHeader(app: "tagscope listen"))
    let session = LiveSession(store: timeline, checker: nil)
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0), ingest: session)
    let result = try runSDKClient(script, port: server.port)
    eventually { timeline.count >= count }
    try await server.shutdown()
    session.close()
    let records = (0..<timeline.count).compactMap { try? timeline.record(at: $0) }
    timeline.release()
    XCTAssertEqual(result.status, 0, "\(script): \(result.output)")
    XCTAssertEqual(records.count, count, "\(script): \(result.output)")
    let outcome = ValidateRunner.run(plan: plan, recordings: [url.path], format: .text, failOn: .error)
    let report = try XCTUnwrap(outcome.report, outcome.diagnostics)
    return (records, report.violations)
  }

  /// mParticle's smartype example plan (`freddy_s_plan`) and the mParticle Python SDK: a screen
  /// view, a purchase and a conforming "Choose Item" pass; the "Choose Item" with an item outside
  /// the enum and the one without `milk` are flagged, at `data.custom_attributes`.
  func testAnMParticleDataPlanJudgesWhatTheMParticleSDKSends() async throws {
    let plan = try importFixture("mparticle-real/freddy_s_plan-v1.json")
    let (records, violations) = try await listen("mparticle_client", expecting: 5, plan: plan)
    XCTAssertEqual(
      records.map { "\($0.kind.rawValue) \($0.name)" },
      ["screen Home", "event Choose Item", "event purchase", "event Choose Item", "event Choose Item"])
    // Two devices (mp_deviceid), each its own source; the second's events carry no screen.
    XCTAssertEqual(Set(records.prefix(3).map(\.source)).count, 1)
    XCTAssertEqual(Set(records.map(\.source)).count, 2)
    XCTAssertEqual(records.map(\.context.screen), ["Home", "Home", "Home", nil, nil])
    XCTAssertEqual(records.first?.context.session?.user, "cust-42")
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" },
      [
        #"4 invalid-value Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.item is "latte""#,
        "5 missing-param Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.milk is missing",
      ])
  }

  /// Amplitude's Ampli example plan ("Test Codegen" schemas) and the Amplitude Python SDK: the
  /// real violation (`intMax10` above its maximum) is caught at `event_properties`, and the
  /// conforming events and identify (its Identify schema, at `user_properties.$set`) pass.
  func testAnAmpliSchemaJudgesWhatTheAmplitudeSDKSends() async throws {
    let plan = try importFixture("ampli-real/test-codegen-events.json", provider: "amplitude")
    let (records, violations) = try await listen("amplitude_plan_client", expecting: 4, plan: plan)
    XCTAssertEqual(
      records.map(\.name), ["identify", "EventMaxIntForTest", "Event With Enum Types", "EventMaxIntForTest"])
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message)" },
      [
        "4 invalid-value EventMaxIntForTest: amplitude track EventMaxIntForTest parameter event_properties.intMax10 is 20, plan line 14 expects at most 10"
      ])
  }
}
