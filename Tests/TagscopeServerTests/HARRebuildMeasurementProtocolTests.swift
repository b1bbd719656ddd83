import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds GA4 Measurement Protocol requests: the records of one request
/// gathered back into it (each event in its place, so the validator's messages name the same
/// index), its measurement id and secret in the query, to the path it was sent to.
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
      XCTAssertEqual(skipped, [.sameRequest], path)
      XCTAssertEqual(requests.count, 1, path)
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
      XCTAssertEqual(postData["text"] as? String, body)
      let (records, summary) = try round.imported(again)
      XCTAssertEqual(summary.problems, [], path)
      XCTAssertEqual(summary.unread, [], path)
      XCTAssertEqual(records, recording, path)
      let messages = try XCTUnwrap(records.last?.outputs.first?.violations).map(\.message)
      XCTAssertTrue(messages.contains { $0.contains("index: [1]") }, "\(messages)")
    }
  }

  /// Two requests of the same stream and client sent back to back stay two requests (each
  /// record past a request's first keeps its index); the second's events keep their places.
  func testBackToBackRequestsStayApart() throws {
    let body =
      #"{"client_id":"c","events":[{"name":"a","params":{"x":1}},{"name":"_b"}],"timestamp_micros":1764410000000000}"#
    let (recording, _) = try round.imported(
      round.har([
        ("POST", "/mp/collect?measurement_id=G-1", body, "application/json"),
        ("POST", "/mp/collect?measurement_id=G-1", body, "application/json"),
      ]))
    XCTAssertEqual(recording.count, 4)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(requests.count, 2)
    XCTAssertEqual(skipped, [.sameRequest, .sameRequest])
    for request in requests {
      XCTAssertEqual((request["postData"] as? [String: Any])?["text"] as? String, body)
    }
    XCTAssertEqual(try round.imported(again).records, recording)
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
