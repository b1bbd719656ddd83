import Foundation
import TagscopeServer
import TagscopeTestSupport
import XCTest

/// The query API's summary counts the SDK payload fields a decoder did not understand (issue 44):
/// `fieldsNotUnderstood` with their count and the first one's place; and the Firebase log lines the
/// reader did not understand, `logLinesNotUnderstood`, as listen's closing line does.
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

  func testTheSummaryCountsTheFirebaseLogLinesNotUnderstoodWithTheFirstWordingsPlace() async throws {
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    let quiet = try listen.request("summary").json["logLinesNotUnderstood"] as? [String: Any]
    XCTAssertEqual(quiet?["count"] as? Int, 0)
    XCTAssertTrue(quiet?["first"] is NSNull, "\(String(describing: quiet))")
    // A real iOS paste (Tests/Fixtures/firebase-log): 5 of its lines are not understood.
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("unread-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: log) }
    try FileManager.default.copyItem(
      at: packageRoot.appendingPathComponent("Tests/Fixtures/firebase-log/ios-2018-event-logged.txt"), to: log
    )
    try listen.server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertTrue(
      eventually { listen.server.statistics.unreadLogLines.total == 5 }, "\(listen.server.statistics)")
    let summary = try listen.request("summary")
    let lines = summary.json["logLinesNotUnderstood"] as? [String: Any]
    XCTAssertEqual(lines?["count"] as? Int, 5, summary.body)
    XCTAssertEqual(lines?["first"] as? String, "I-ACS023027 at \(log.path) line 8", summary.body)
  }
}
