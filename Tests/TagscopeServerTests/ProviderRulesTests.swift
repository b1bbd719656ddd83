import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// SDK traffic is checked against the provider's documented rules (AnalyticsProviders), as the hub
/// checks in-process calls.
final class ProviderRulesTests: XCTestCase {
  func testMixpanelInsertIdOver36BytesIsReportedOnTheRecord() async throws {
    let (server, collector) = try await startServer()
    let insertID = String(repeating: "a", count: 40)
    let body =
      #"[{"event":"Play","properties":{"token":"t","distinct_id":"user-42","$insert_id":"\#(insertID)"}}]"#
    let reply = try httpRequest(port: server.port, path: "/track", body: body)
    XCTAssertEqual(reply?.status, 200)
    collector.waitForRecords(1)
    try await server.shutdown()
    let violations = collector.records.first?.outputs.first?.violations.map(\.rule) ?? []
    XCTAssertEqual(violations, ["mixpanel.insert-id"])
  }

  func testCleanSegmentTrafficCarriesNoViolation() async throws {
    let (server, collector) = try await startServer()
    let batch =
      #"{"batch":[{"type":"group","userId":"user-42","groupId":"g-7","traits":{}},"#
      + #"{"type":"alias","userId":"user-43","previousId":"user-42"},"#
      + #"{"type":"track","userId":"user-42","event":"Play","properties":{"n":1}}]}"#
    let reply = try httpRequest(port: server.port, path: "/v1/batch", body: batch)
    XCTAssertEqual(reply?.status, 200)
    collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(collector.records.count, 3)
    XCTAssertEqual(collector.records.flatMap { $0.outputs.flatMap(\.violations) }.map(\.rule), [])
  }
}
