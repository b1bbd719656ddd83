import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds Adobe Edge's `/ee/v1/interact` requests from the records of
/// each request (the first keeps the request's `xdm`, `meta`, `query`; each its event and its
/// index; a path other than `/ee/v1/interact`), its set-consent requests, and the Analytics
/// extension's hits.
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

  /// The Analytics extension's hits (a trackAction with context data, the SDK's Lifecycle hit, a
  /// trackState with nested keys) are rebuilt as the SDK writes them and read back the same.
  func testAnalyticsHitsRoundTripThroughTheirRebuild() throws {
    let state = AdobeWireFixtures.hit(
      method: "trackState", name: "podcasts",
      contextData: ["podcast.title": "Swift by Sundell", "podcast.episode": "42", "podcast": "top"],
      ecid: "e-1",
      time: 1_764_410_000)
    let form = "application/x-www-form-urlencoded"
    let (recording, first) = try round.imported(
      round.har([
        ("POST", AdobeWireFixtures.hitPath, AdobeWireFixtures.actionHit, form),
        ("POST", AdobeWireFixtures.hitPath, AdobeWireFixtures.lifecycleHit, form),
        ("POST", AdobeWireFixtures.hitPath, state, form),
      ]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(
      recording.map { $0.outputs.first?.calls.first?.method },
      ["trackAction", "internalAction", "trackState"])
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [])
    XCTAssertEqual(requests.count, 3)
    for request in requests {
      XCTAssertEqual(
        request["url"] as? String, "https://tracking-server.sc.omtrdc.net/b/ss/acmersid/0/TAGSCOPE/s0")
      XCTAssertEqual((request["postData"] as? [String: Any])?["mimeType"] as? String, form)
    }
    let action = try XCTUnwrap((requests.first?["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(
      action.hasPrefix("ndh=1&ce=UTF-8&c.&k1=v1&k2=v2&a.&action=testAction&.a&.c&t=00%2F00"), action)
    let nested = try XCTUnwrap((requests.last?["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(nested.contains("&podcast=top&podcast.&"), nested)
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// A hit sent with Audience Manager forwarding on (`/b/ss/<rsid>/10/…`) is rebuilt to that mode,
  /// not to `0`, and reads back the same.
  func testAnAnalyticsHitsPathModeIsKept() throws {
    let form = "application/x-www-form-urlencoded"
    let path = AdobeWireFixtures.hitPath.replacingOccurrences(of: "/0/", with: "/10/")
    let (recording, first) = try round.imported(
      round.har([("POST", path, AdobeWireFixtures.actionHit, form)]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(recording.first?.outputs.first?.extra["path_mode"], "10")
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [])
    XCTAssertEqual(
      requests.first?["url"] as? String, "https://tracking-server.sc.omtrdc.net/b/ss/acmersid/10/TAGSCOPE/s0")
    let (records, _) = try round.imported(again)
    XCTAssertEqual(records, recording)
  }

  /// Requests to the other Edge paths (the Server API's `/ee/v2/interact` of one event and
  /// `/ee/v2/collect`, a `/ee/v1/collect` behind a location hint, and set-consent requests with
  /// and without one) go back to the paths their first records keep, with their datastreams, and
  /// read back the same.
  func testEdgeRequestsToOtherPathsRoundTripToThosePaths() throws {
    let v2 = AdobeEdgeConsentAndV2Tests.self
    let json = "application/json"
    let (recording, first) = try round.imported(
      round.har([
        ("POST", "/ee/v2/interact?datastreamId=ds-1&requestId=r-1", v2.serverInteract, json),
        ("POST", "/ee/v2/collect?datastreamId=ds-2", v2.serverCollect, json),
        ("POST", "/ee/or2/v1/collect?configId=cfg-1", AdobeWireFixtures.edgeTwoEvents, json),
        ("POST", "/ee/v1/privacy/set-consent?configId=cfg-1", v2.consent("n"), json),
        ("POST", "/ee/or2/v1/privacy/set-consent?configId=cfg-1", v2.consent("y"), json),
      ]))
    XCTAssertEqual(first.problems, [])
    XCTAssertEqual(recording.count, 7)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped, [.sameRequest, .sameRequest])
    XCTAssertEqual(
      requests.map { $0["url"] as? String },
      [
        "https://edge.adobedc.net/ee/v2/interact?datastreamId=ds-1",
        "https://edge.adobedc.net/ee/v2/collect?datastreamId=ds-2",
        "https://edge.adobedc.net/ee/or2/v1/collect?configId=cfg-1",
        "https://edge.adobedc.net/ee/v1/privacy/set-consent?configId=cfg-1",
        "https://edge.adobedc.net/ee/or2/v1/privacy/set-consent?configId=cfg-1",
      ])
    let single = try XCTUnwrap((requests.first?["postData"] as? [String: Any])?["text"] as? String)
    XCTAssertTrue(single.hasPrefix(#"{"event":{"xdm":{"identityMap""#), single)
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// A first record that keeps no path (an older recording's Server API request, no request
  /// `xdm`) is not taken for an `/ee/v1/interact` request: it is counted as not rebuilt, with why.
  func testAServerAPIRequestWithoutItsPathIsNotRebuilt() throws {
    let (recording, _) = try round.imported(
      round.har([
        (
          "POST", "/ee/v2/interact?datastreamId=ds-1", AdobeEdgeConsentAndV2Tests.serverInteract,
          "application/json"
        )
      ]))
    XCTAssertEqual(recording.count, 1)
    var older = recording
    older[0].outputs[0].extra["path"] = nil
    let said = HARRebuildRoundTrip.notRebuilt(try round.exported(older).skipped)
    XCTAssertEqual(said.count, 1)
    XCTAssertTrue(said.first?.hasPrefix("adobe: its request's `request` has no `xdm`") == true, "\(said)")
  }
}
