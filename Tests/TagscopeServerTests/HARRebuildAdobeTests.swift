import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds Adobe Edge's `/ee/v1/interact` requests from the records of
/// each request (the first keeps the request's `xdm`, `meta`, `query`; each its event and its
/// index); Analytics hits and Server API (v2) requests are counted as not rebuilt, with why.
final class HARRebuildAdobeTests: XCTestCase {
  private let round = HARRebuildRoundTrip()

  /// aepsdk-edge's two requests (the functional test's event without `eventType`, and a request
  /// of two events) give two requests back at the Edge's own host, with their datastream.
  func testEdgeInteractRequestsRoundTripThroughTheirRebuild() throws {
    let (recording, first) = try round.imported(
      round.har([
        (
          "POST", "/ee/v1/interact?configId=cfg-1&requestId=r-1", AdobeWireFixtures.edgeInteract,
          "application/json"
        ),
        (
          "POST", "/ee/v1/interact?configId=cfg-1&requestId=r-2", AdobeWireFixtures.edgeTwoEvents,
          "application/json"
        ),
      ]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(recording.count, 3)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [.sameRequest])
    XCTAssertEqual(requests.count, 2)
    for request in requests {
      XCTAssertEqual(request["method"] as? String, "POST")
      XCTAssertEqual(request["url"] as? String, "https://edge.adobedc.net/ee/v1/interact?configId=cfg-1")
      XCTAssertEqual((request["postData"] as? [String: Any])?["mimeType"] as? String, "application/json")
    }
    let text = try XCTUnwrap((XCTUnwrap(requests.last)["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(text.hasPrefix(#"{"xdm":{"identityMap":{"ECID":[{"id":"ecid-7""#), text)
    XCTAssertTrue(text.contains(#""events":[{"xdm":{"_id":"e-1""#), text)
    XCTAssertTrue(text.contains(#"{"xdm":{"_id":"e-2""#), text)
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// A Server API request (no request `xdm`: each event names its own user) and an Analytics hit
  /// (its tracking server is not kept) are counted as not rebuilt, each with its reason.
  func testServerAPIRequestsAndAnalyticsHitsAreNotRebuilt() throws {
    let server = #"{"event":{"xdm":{"_id":"s-1","eventType":"web.webpagedetails.pageViews"}}}"#
    let (recording, _) = try round.imported(
      round.har([
        ("POST", "/ee/v2/interact?datastreamId=ds-1", server, "application/json"),
        (
          "POST", AdobeWireFixtures.hitPath, AdobeWireFixtures.actionHit,
          "application/x-www-form-urlencoded"
        ),
      ]))
    XCTAssertEqual(recording.count, 2)
    let said = HARRebuildRoundTrip.notRebuilt(try round.exported(recording).skipped)
    XCTAssertEqual(said.count, 2)
    XCTAssertTrue(said.first?.hasPrefix("adobe: its request's `request` has no `xdm`") == true, "\(said)")
    XCTAssertTrue(said.last?.hasPrefix("adobe: an Analytics hit's record keeps neither") == true, "\(said)")
  }
}
