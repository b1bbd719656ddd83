import Foundation
import TagscopeTestSupport
import XCTest

/// The query API's summary counts the SDK payload fields a decoder did not understand (issue 44):
/// `fieldsNotUnderstood` with their count and the first one's place.
final class FieldsNotUnderstoodSummaryTests: XCTestCase {
  func testTheSummaryCountsTheFieldsNotUnderstoodWithTheFirstPlace() async throws {
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    let body =
      #"{"batch":[{"type":"track","event":"A","userId":"u"},{"type":"track","event":"B","userId":"u"}],"#
      + #""context":{"ip":"1.2.3.4"},"integrations":{},"sentAt":"2026-11-21T10:00:01.000Z"}"#
    XCTAssertEqual(try httpRequest(port: listen.server.port, path: "/v1/batch", body: body)?.status, 200)
    XCTAssertEqual(try listen.request("wait?count=2&timeout=60").status, 200)
    let summary = try listen.request("summary")
    let fields = summary.json["fieldsNotUnderstood"] as? [String: Any]
    XCTAssertEqual(fields?["count"] as? Int, 2, summary.body)
    let first = try XCTUnwrap(fields?["first"] as? String, summary.body)
    XCTAssertTrue(first.hasPrefix("record ") && first.hasSuffix(" segment context"), first)
  }
}
