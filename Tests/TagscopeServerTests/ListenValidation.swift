import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// What the tests of imported plans against real SDK traffic share (`ImportedPlanListenTests`,
/// `MParticleBatchUserDataListenTests`): a real `listen` recording what an SDK sends, then
/// `tagscope validate`'s run of that recording.
extension XCTestCase {
  /// Runs `script` against a real `listen` recording to a temporary file; returns the recording's
  /// records and `tagscope validate`'s violations of it against `plan`.
  func listenAndValidate(_ script: String, expecting count: Int, plan: Plan) async throws -> (
    [Record], [PlanViolation]
  ) {
    try await listenAndValidate(expecting: count, plan: plan) { port in
      let result = try runSDKClient(script, port: port)
      XCTAssertEqual(result.status, 0, "\(script): \(result.output)")
    }
  }

  /// Runs `send` with the port of a real `listen` recording to a temporary file; returns the
  /// recording's records and `tagscope validate`'s violations of it against `plan`.
  func listenAndValidate(
    expecting count: Int, plan: Plan, send: (Int) throws -> Void
  ) async throws -> ([Record], [PlanViolation]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "plan-listen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("listen.jsonl")
    let timeline = try Timeline.live(recordingTo: url, header: RecordingHeader(app: "tagscope listen"))
    let session = LiveSession(store: timeline, checker: nil)
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0), ingest: session)
    try send(server.port)
    eventually { timeline.count >= count }
    try await server.shutdown()
    session.close()
    let records = (0..<timeline.count).compactMap { try? timeline.record(at: $0) }
    timeline.release()
    XCTAssertEqual(records.count, count)
    let outcome = ValidateRunner.run(plan: plan, recordings: [url.path], format: .text, failOn: .error)
    let report = try XCTUnwrap(outcome.report, outcome.diagnostics)
    return (records, report.violations)
  }
}
