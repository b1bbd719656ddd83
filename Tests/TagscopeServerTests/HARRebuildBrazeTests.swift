import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds Braze's `/api/v3/data` requests from the records of each
/// request (the first keeps the request's own fields, the others their event or attribute), and
/// its content requests from their one record.
final class HARRebuildBrazeTests: XCTestCase {
  private let round = HARRebuildRoundTrip()

  private func fixture(_ name: String) throws -> String {
    String(
      decoding: try Data(
        contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/braze-piano-wire/" + name)),
      as: UTF8.self)
  }

  /// The postData text of `request`.
  private func body(_ request: [String: Any]) throws -> String {
    try XCTUnwrap((request["postData"] as? [String: Any])?["text"] as? String)
  }

  /// braze-roku-sdk's request (every event type and attribute form) and the Web SDK's, sent one
  /// after the other, give two requests back, each with its own fields, events and attributes,
  /// which import again as the same records.
  func testBrazeDataRequestsRoundTripThroughTheirRebuild() throws {
    let roku = try fixture("braze-roku-2.2.0.json")
    let web = try fixture("braze-web-2.5.2.json")
    let (recording, first) = try round.imported(
      round.har([
        ("POST", "/api/v3/data", roku, "application/json"),
        ("POST", "/api/v3/data/", web, "application/json"),
      ]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(recording.count, 16)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, Array(repeating: .sameRequest, count: 14))
    XCTAssertEqual(requests.count, 2)
    for request in requests {
      XCTAssertEqual(request["method"] as? String, "POST")
      XCTAssertEqual(request["url"] as? String, "https://sdk.iad-01.braze.com/api/v3/data")
      XCTAssertEqual((request["postData"] as? [String: Any])?["mimeType"] as? String, "application/json")
    }
    let text = try body(XCTUnwrap(requests.first))
    XCTAssertTrue(text.hasPrefix(#"{"api_key":"roku-api-key","app_version":"1.0""#), text)
    XCTAssertTrue(
      text.contains(
        #"{"name":"ce","data":{"n":"podcast_downloaded","p":{"podcast_title":"Swift by Sundell","podcast_duration":1830}}"#
      ), text)
    XCTAssertTrue(
      text.contains(#"{"pid":"premium_month","c":"EUR","p":4.99,"q":1,"pr":{"plan":"monthly"}}"#), text)
    XCTAssertTrue(text.contains(#"{"name":"si","data":{"trigger_ids":["t-1"]}"#), text)
    XCTAssertTrue(
      text.hasSuffix(
        #""attributes":[{"custom":{"push_authorized":true,"favorites_count":3,"old_flag":null},"first_name":"Ada","user_id":"u-42"}]}"#
      ), text)
    XCTAssertTrue(try body(XCTUnwrap(requests.last)).contains(#""respond_with":{"user_id":"2405091""#))
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// A key sent only in the `X-Braze-Api-Key` header goes back in that header, not in the body;
  /// a purchase whose properties replace its price keeps it in them.
  func testAHeaderKeyAndAReplacedPriceRoundTrip() throws {
    let request =
      #"{"device_id":"d-1","events":[{"name":"p","data":{"pid":"gold","c":"USD","p":5,"pr":{"price":"five","n":1}},"#
      + #""time":1764410000}]}"#
    let har = round.har([("POST", "/api/v3/data", request, "application/json")])
      .replacingOccurrences(
        of: #""headers":[],"queryString""#,
        with: #""headers":[{"name":"X-Braze-Api-Key","value":"header-key"}],"queryString""#)
    let (recording, _) = try round.imported(har)
    XCTAssertEqual(recording.count, 1)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [])
    let headers = try XCTUnwrap(requests.first?["headers"] as? [[String: String]])
    XCTAssertTrue(headers.contains(["name": "X-Braze-Api-Key", "value": "header-key"]), "\(headers)")
    let text = try body(XCTUnwrap(requests.first))
    XCTAssertFalse(text.contains("api_key"), text)
    XCTAssertTrue(text.contains(#""pr":{"price":"five","n":1}"#), text)
    XCTAssertEqual(try round.imported(again).records, recording)
  }

  /// A content card sync is rebuilt from its one record at its own path.
  func testAContentCardSyncRoundTrips() throws {
    let sync =
      #"{"api_key":"k","device_id":"d-1","last_full_sync_at":1764400000,"last_card_updated_at":1764400001}"#
    let (recording, _) = try round.imported(
      round.har([("POST", "/api/v3/content_cards/sync", sync, "application/json")]))
    XCTAssertEqual(recording.count, 1)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [])
    XCTAssertEqual(
      requests.first?["url"] as? String, "https://sdk.iad-01.braze.com/api/v3/content_cards/sync")
    XCTAssertEqual(try round.imported(again).records, recording)
  }

  /// A request whose first record kept fields the decoder did not read is not rebuilt, nor are the
  /// records after it (the request's own fields are the first's); an event with unread fields
  /// later in a request is left out of it alone.
  func testRecordsWithUnreadFieldsAreNotRebuilt() throws {
    let unreadRequest = #"{"api_key":"k","device_id":"d","extra":1,"events":[{"name":"ss"},{"name":"se"}]}"#
    let unreadEvent =
      #"{"api_key":"k","device_id":"d","events":[{"name":"ss"},{"name":"ce","data":{"n":"a"},"odd":1}]}"#
    let (recording, _) = try round.imported(
      round.har([
        ("POST", "/api/v3/data", unreadRequest, "application/json"),
        ("POST", "/api/v3/data", unreadEvent, "application/json"),
      ]))
    XCTAssertEqual(recording.count, 4)
    let (_, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(requests.count, 1)
    XCTAssertEqual(
      HARRebuildRoundTrip.notRebuilt(skipped),
      [
        "braze: " + HARRequestRebuild.unread.reason,
        "braze: it keeps no `request`: its request's own fields are kept by the first record of its request, which is not exported before it",
        "braze: " + HARRequestRebuild.unread.reason,
      ])
  }

  /// An event not rebuilt in the middle of a request leaves out the events after it too: they
  /// would read back at other places (`events[1]` for `events[2]`).
  func testTheEventsAfterOneNotRebuiltAreLeftOut() throws {
    let middle =
      #"{"api_key":"k","device_id":"d","events":[{"name":"ss"},{"name":"ce","data":{"n":"a"},"odd":1},{"name":"se"}]}"#
    let (recording, _) = try round.imported(round.har([("POST", "/api/v3/data", middle, "application/json")]))
    XCTAssertEqual(recording.count, 3)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(requests.count, 1)
    XCTAssertEqual(
      HARRebuildRoundTrip.notRebuilt(skipped),
      [
        "braze: " + HARRequestRebuild.unread.reason,
        "braze: record \(recording[1].seq) before it in its request is not rebuilt, so its place in the request would shift",
      ])
    XCTAssertEqual(try round.imported(again).records, [recording[0]])
  }
}
