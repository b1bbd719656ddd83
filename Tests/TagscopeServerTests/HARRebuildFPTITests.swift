import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds PayPal FPTI's `/v1/tracking/events` requests: each record's
/// event with its tags, the SDK's tags and the merchant's key in `event_params`.
final class HARRebuildFPTITests: XCTestCase {
  private let round = HARRebuildRoundTrip()

  /// paypal-ios' request (the wire tests' fixture) round trips field for field.
  func testPayPalSDKEventsRoundTripThroughTheirRebuild() throws {
    let body = String(
      decoding: try Data(
        contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/fpti-wire/paypal-ios.json")),
      as: UTF8.self)
    let (recording, first) = try round.imported(
      round.har([("POST", "/v1/tracking/events", body, "application/json")]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(recording.count, 1)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [])
    let request = try XCTUnwrap(requests.first)
    XCTAssertEqual(request["method"] as? String, "POST")
    XCTAssertEqual(request["url"] as? String, "https://api-m.paypal.com/v1/tracking/events")
    let postData = try XCTUnwrap(request["postData"] as? [String: Any])
    XCTAssertEqual(postData["mimeType"] as? String, "application/json")
    let text = try XCTUnwrap(postData["text"] as? String)
    XCTAssertTrue(
      text.hasPrefix(#"{"events":{"event_params":{"event_name":"paypal-web-payments:checkout:started","#),
      text)
    XCTAssertTrue(text.contains(#""partner_client_id":"AYexampleClientID0123456789""#), text)
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records, recording)
  }

  /// A Braintree batch's records share its `batch_params` (session, app, key), which a request
  /// of one event would lose: none is rebuilt, each is counted as not rebuilt.
  func testABraintreeBatchsRecordsAreNotRebuilt() throws {
    let batch =
      #"{"events":[{"batch_params":{"app_id":"a","session_id":"s-1","tokenization_key":"tk"},"#
      + #""event_params":[{"event_name":"one","t":1},{"event_name":"two","t":2}]}]}"#
    let (recording, _) = try round.imported(
      round.har([("POST", "/v1/tracking/batch/events", batch, "application/json")]))
    XCTAssertEqual(recording.count, 2)
    XCTAssertEqual(recording.last?.context.session?.id, "s-1")
    XCTAssertEqual(
      HARRebuildRoundTrip.notRebuilt(try round.exported(recording).skipped),
      Array(
        repeating: "fpti: it keeps no `partner_client_id`, which each fpti record rebuilt keeps", count: 2))
  }
}
