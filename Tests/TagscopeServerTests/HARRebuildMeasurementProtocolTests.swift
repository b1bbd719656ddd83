import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds GA4 Measurement Protocol requests: the request with the
/// record's own event, its measurement id and secret in the query, to the path it was sent to.
final class HARRebuildMeasurementProtocolTests: XCTestCase {
  private let round = HARRebuildRoundTrip()

  /// Each path's requests come back with their URL, method, JSON body and query, and import
  /// again into the same records (violations included: that a secret was given is kept, never
  /// its value).
  func testMeasurementProtocolAndValidationRequestsRoundTrip() throws {
    let body =
      #"{"client_id":"123.456","user_id":"u-1","events":[{"name":"purchase","params":{"value":12}},"#
      + #"{"name":"_reserved","params":{"a":1}}]}"#
    for path in ["/mp/collect", "/debug/mp/collect"] {
      let sent = round.har([
        ("POST", path + "?measurement_id=G-TEST&api_secret=s%20x", body, "application/json")
      ])
      let (recording, first) = try round.imported(sent)
      XCTAssertEqual(first.problems, [], path)
      XCTAssertEqual(recording.count, 2, path)
      let (again, requests, skipped) = try round.exported(recording)
      XCTAssertEqual(skipped, [], path)
      XCTAssertEqual(requests.count, 2, path)
      let rebuilt = try XCTUnwrap(requests.first)
      XCTAssertEqual(rebuilt["method"] as? String, "POST")
      XCTAssertEqual(
        rebuilt["url"] as? String,
        "https://www.google-analytics.com\(path)?measurement_id=G-TEST&api_secret=redacted")
      let written = try XCTUnwrap(
        String(data: JSONSerialization.data(withJSONObject: requests), encoding: .utf8))
      XCTAssertFalse(written.contains("s x") || written.contains("s%20x"), "the secret's value is not kept")
      let postData = try XCTUnwrap(rebuilt["postData"] as? [String: Any])
      XCTAssertEqual(postData["mimeType"] as? String, "application/json")
      XCTAssertEqual(
        postData["text"] as? String,
        #"{"client_id":"123.456","user_id":"u-1","events":[{"name":"purchase","params":{"value":12}}]}"#)
      let (records, summary) = try round.imported(again)
      XCTAssertEqual(summary.problems, [], path)
      XCTAssertEqual(summary.unread, [], path)
      XCTAssertEqual(
        records.map(HARRebuildRoundTrip.withoutViolationMessages),
        recording.map(HARRebuildRoundTrip.withoutViolationMessages), path)
      XCTAssertFalse(try XCTUnwrap(records.last?.outputs.first?.violations).isEmpty, path)
    }
  }

  /// A request without its secret is rebuilt without one: the record's violation comes back.
  func testARequestWithoutItsSecretIsRebuiltWithoutOne() throws {
    let sent = round.har([
      (
        "POST", "/mp/collect?firebase_app_id=1:2:ios:3", #"{"app_instance_id":"a","events":[{"name":"go"}]}"#,
        "application/json"
      )
    ])
    let (recording, _) = try round.imported(sent)
    let (again, requests, _) = try round.exported(recording)
    XCTAssertEqual(
      requests.first?["url"] as? String,
      "https://www.google-analytics.com/mp/collect?firebase_app_id=1%3A2%3Aios%3A3")
    XCTAssertEqual(try round.imported(again).records, recording)
    XCTAssertEqual(recording.first?.outputs.first?.violations.map(\.rule).isEmpty, false)
  }
}
