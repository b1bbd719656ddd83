import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds mParticle's requests from the records of each request (the
/// request's first keeps its path, each batch's first the batch's own fields, each record its
/// event): the Events API's batch and bulk requests (Basic auth with the key, never the secret),
/// the web SDK's and the mobile SDKs' uploads.
final class HARRebuildMParticleTests: XCTestCase {
  private let round = HARRebuildRoundTrip()

  /// A batch as mParticle/mparticle-python-sdk's `Batch` writes it (`events` of `AppEvent`,
  /// `ScreenViewEvent`, `UserAttributeChangeEvent`; `device_info`, `application_info`,
  /// `user_identities`, `user_attributes`, `mpid`), with the transport field `environment`.
  private static func batch(mpid: Int, screen: String) -> String {
    #"{"events":[{"data":{"screen_name":"\#(screen)","timestamp_unixtime_ms":1764112795000},"event_type":"screen_view"},"#
      + #"{"data":{"event_name":"Choose Item","custom_event_type":"other","#
      + #""custom_attributes":{"quantity":2,"milk":true}},"event_type":"custom_event"},"#
      + #"{"data":{"user_attribute_name":"plan","new":"gold"},"event_type":"user_attribute_change"}],"#
      + #""device_info":{"platform":"Android","device_model":"Pixel 8","android_uuid":"a-uuid-\#(mpid)"},"#
      + #""application_info":{"package":"com.freddys.app"},"user_identities":{"email":"ann@example.com"},"#
      + #""user_attributes":{"plan":"gold"},"mpid":\#(mpid),"environment":"development"}"#
  }

  private func fixture(_ name: String) throws -> String {
    String(
      decoding: try Data(
        contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/mparticle-native/" + name)),
      as: UTF8.self)
  }

  private func header(_ request: [String: Any], _ name: String) -> String? {
    (request["headers"] as? [[String: Any]])?.first { ($0["name"] as? String) == name }?["value"] as? String
  }

  /// One request of each path (the Events API's one batch and bulk two, the web SDK's and the iOS
  /// SDK's upload) gives one request back each, at mParticle's own hosts, and imports again as
  /// the same records; the Events API's carry the key as Basic auth user with an empty secret.
  func testEachPathsRequestsRoundTripThroughTheirRebuild() throws {
    let json = "application/json"
    let bulk = "[" + Self.batch(mpid: 1, screen: "Home") + "," + Self.batch(mpid: 2, screen: "Cart") + "]"
    let (recording, first) = try round.imported(
      round.har(
        [
          ("POST", "/v2/events", Self.batch(mpid: 7, screen: "Home"), json),
          ("POST", "/v2/bulkevents", bulk, json),
          ("POST", "/v3/JS/web-key/events", Self.batch(mpid: 8, screen: "Menu"), "text/plain"),
          ("POST", "/v2/us1-abc/events", try fixture("ios-batch.json"), json),
        ], headers: [("Authorization", "Basic " + Data("mp-key:mp-secret".utf8).base64EncodedString())]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(recording.count, 16)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, Array(repeating: .sameRequest, count: 12))
    XCTAssertEqual(
      requests.map { $0["url"] as? String },
      [
        "https://s2s.mparticle.com/v2/events", "https://s2s.mparticle.com/v2/bulkevents",
        "https://jssdks.mparticle.com/v3/JS/web-key/events",
        "https://nativesdks.mparticle.com/v2/us1-abc/events",
      ])
    let keyOnly = "Basic " + Data("mp-key:".utf8).base64EncodedString()
    XCTAssertEqual(requests.map { header($0, "Authorization") }, [keyOnly, keyOnly, nil, nil])
    XCTAssertFalse(again.contains(Data("mp-key:mp-secret".utf8).base64EncodedString()), "no secret exported")
    let bulkBody = try XCTUnwrap((requests[1]["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(bulkBody.hasPrefix(#"[{"device_info":{"platform":"Android""#), bulkBody)
    XCTAssertTrue(bulkBody.contains(#""mpid":2,"events":[{"data":{"screen_name":"Cart""#), bulkBody)
    let native = try XCTUnwrap((requests[3]["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(native.hasPrefix(#"{"mpid":6008681217290486000,"das":"#), native)
    XCTAssertTrue(native.contains(#""msgs":[{"dt":"ss""#), native)
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// A batch that kept a field its decoder did not read is not rebuilt, nor are the records after
  /// its first in its request (their places would shift); the request after it is.
  func testABatchWithUnreadFieldsIsNotRebuilt() throws {
    let odd = Self.batch(mpid: 7, screen: "Home").replacingOccurrences(
      of: #""mpid":7"#, with: #""mpid":7,"odd":1"#)
    let (recording, _) = try round.imported(
      round.har(
        [
          ("POST", "/v2/events", odd, "application/json"),
          ("POST", "/v2/events", Self.batch(mpid: 8, screen: "Home"), "application/json"),
        ],
        headers: [("Authorization", "Basic " + Data("mp-key:s".utf8).base64EncodedString())]))
    XCTAssertEqual(recording.count, 6)
    let (_, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(requests.count, 1)
    XCTAssertEqual(
      HARRebuildRoundTrip.notRebuilt(skipped),
      [
        "mparticle: " + HARRequestRebuild.unread.reason,
        "mparticle: it keeps no `path`: its request's path is kept by the first record of its request, which is not exported before it",
        "mparticle: it keeps no `path`: its request's path is kept by the first record of its request, which is not exported before it",
      ])
  }

  /// A batch without events (mParticle applies its user attributes and identities all the same)
  /// is one `identify` record of its own, with the batch's attributes as its properties; alone or
  /// between two batches of a bulk request, it rebuilds as a batch without events and imports
  /// again as the same records.
  func testABatchWithoutEventsIsOneRecordAndRebuildsWithoutAnEvent() throws {
    let lone = #"{"user_attributes":{"plan":"silver"},"user_identities":{"customerid":"c9"},"mpid":9}"#
    let bulk =
      "[" + Self.batch(mpid: 1, screen: "Home") + "," + lone + "," + Self.batch(mpid: 2, screen: "Cart") + "]"
    let (recording, first) = try round.imported(
      round.har(
        [
          ("POST", "/v2/events", lone, "application/json"),
          ("POST", "/v2/bulkevents", bulk, "application/json"),
        ],
        headers: [("Authorization", "Basic " + Data("mp-key:s".utf8).base64EncodedString())]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(first.unread, [])
    XCTAssertEqual(
      recording.map { "\($0.kind.rawValue) \($0.name)" },
      [
        "identify identify", "screen Home", "event Choose Item", "identify identify", "identify identify",
        "screen Cart", "event Choose Item", "identify identify",
      ])
    XCTAssertEqual(recording[0].properties, ["plan": "silver"])
    XCTAssertEqual(recording[0].outputs.first?.calls.first?.method, MParticleEndpoint.batchMethod)
    let (again, requests, _) = try round.exported(recording)
    XCTAssertEqual(requests.count, 2)
    let body = try XCTUnwrap((requests[1]["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(
      body.contains(
        #"},{"user_attributes":{"plan":"silver"},"user_identities":{"customerid":"c9"},"mpid":9},{"#),
      body)
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }
}
