// swift-format-ignore-file
// The query API's doc comment examples, verbatim (DocExampleCoverageTests checks that they are).

import Foundation
import TagscopeLive
import TagscopeServer
import TagscopeTimeline
import XCTest

/// The query API's doc comment examples, compiled and run.
final class QueryAPIDocExamples: XCTestCase {
  // Sources/TagscopeLive/QueryService.swift (QueryService)
  func testQueryServiceExample() async throws {
    let timeline = try Timeline.live()
    defer { timeline.release(keepTemporary: false) }
    let checker: PlanChecker? = nil
    let configuration = ListenConfiguration(port: 0)
    let session = LiveSession(store: timeline, checker: checker)
    let query = QueryService(session: session, timeline: timeline)
    let server = try await ListenServer.start(configuration: configuration, ingest: session, query: query)
    try await server.shutdown()
    session.close()
  }
}
