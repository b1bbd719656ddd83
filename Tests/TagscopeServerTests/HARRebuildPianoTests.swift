import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds Piano Analytics' `/event` requests: each record's event with
/// the app's and the SDK's properties, its forced types, its site and visitor in the query.
final class HARRebuildPianoTests: XCTestCase {
  private let round = HARRebuildRoundTrip()

  /// piano-analytics-android's request (the wire tests' fixture) round trips field for field.
  func testPianoEventsRoundTripThroughTheirRebuild() throws {
    let body = String(
      decoding: try Data(
        contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/braze-piano-wire/piano-android.json")),
      as: UTF8.self)
    let (recording, first) = try round.imported(
      round.har([("POST", "/event?s=447850&idclient=v-0f1e", body, "text/plain")]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(recording.count, 2)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [])
    XCTAssertEqual(requests.count, 2)
    for request in requests {
      XCTAssertEqual(request["method"] as? String, "POST")
      XCTAssertEqual(request["url"] as? String, "https://logs.xiti.com/event?s=447850&idclient=v-0f1e")
      XCTAssertEqual((request["postData"] as? [String: Any])?["mimeType"] as? String, "application/json")
    }
    let text = try XCTUnwrap((requests.last?["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(text.hasPrefix(#"{"events":[{"name":"click.action","data":{"click":"play_podcast""#), text)
    XCTAssertTrue(text.contains(#""n:podcast_duration":1830,"s:episode":"42""#), text)
    XCTAssertTrue(text.contains(#""device_model":"Pixel 7""#), text)
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records, recording)
  }

  /// A record that kept fields its decoder did not read is not rebuilt (they would be lost): it
  /// is counted as not rebuilt.
  func testARecordWithUnreadFieldsIsNotRebuilt() throws {
    let (recording, _) = try round.imported(
      round.har([
        ("POST", "/event?s=1", #"{"events":[{"name":"a","data":{"x":1},"extra":2}]}"#, "application/json")
      ]))
    XCTAssertEqual(recording.count, 1)
    XCTAssertEqual(
      try round.exported(recording).skipped,
      [.notRebuilt(provider: "piano", reason: HARRequestRebuild.unread.reason)])
  }
}
