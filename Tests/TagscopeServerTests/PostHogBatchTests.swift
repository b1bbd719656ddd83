import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A PostHog batch of more than a few hundred events is checked event by event and kept as its
/// bytes, each slice decoded when delivered (issue 31: a 20 MB `/batch` peaked at 67× its body):
/// the events, answers and refusals must be those of decoding it whole.
final class PostHogBatchTests: XCTestCase {
  private func request(_ body: String, contentType: String = "application/json", path: String = "/batch/")
    -> ReceivedRequest
  {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: contentType)
    return ReceivedRequest(
      method: .POST, path: path, query: [], headers: headers, body: Array(body.utf8), peerHost: "127.0.0.1")
  }

  /// Events of every shape the endpoint reads: identify, screen, page view, plain events with
  /// nested properties, a timestamp, their own key or the batch's.
  private func events(_ count: Int, ownKeys: Bool = false) -> [String] {
    (0..<count).map { index in
      let key = ownKeys ? #","api_key":"k-\#(index % 3)""# : ""
      switch index % 5 {
      case 0:
        return
          #"{"event":"$identify","distinct_id":"u-\#(index)","$set":{"plan":"pro","n":\#(index)}\#(key)}"#
      case 1:
        return
          #"{"event":"$screen","properties":{"$screen_name":"Player \#(index)","list":[1,{"a":null}]}\#(key)}"#
      case 2:
        return
          #"{"event":"$pageview","properties":{"$pathname":"/p/\#(index)"},"timestamp":"2026-11-25T10:00:00.000Z"\#(key)}"#
      case 3:
        return #"{"event":"Play \u00e9 \#(index)","properties":{"title":"T\"\#(index)","token":"t"}\#(key)}"#
      default:
        return #"{"event":\#(index),"distinct_id":"d","properties":{"x":\#(Double(index) / 3)}\#(key)}"#
      }
    }
  }

  private func assertSameAsWhole(_ request: ReceivedRequest, lazy expectLazy: Bool, line: UInt = #line) {
    let endpoint = PostHogEndpoint()
    let whole = endpoint.handle(request)
    let lazy = endpoint.handleLazily(request)
    XCTAssertEqual(lazy.status, whole.status, line: line)
    XCTAssertEqual(lazy.body, whole.body, line: line)
    XCTAssertEqual(lazy.rejection, whole.rejection, line: line)
    XCTAssertEqual(lazy.batch != nil, expectLazy, line: line)
    let decoded = lazy.events + (lazy.batch.map { $0.events(0..<$0.count) } ?? [])
    XCTAssertEqual(decoded.count, whole.events.count, line: line)
    XCTAssertEqual(decoded, whole.events, line: line)
  }

  /// `/batch` is shared with Amplitude's Batch API: the shared endpoint decodes a large PostHog
  /// batch lazily too (it used to build a tree of the whole body to look at its keys, then decode
  /// it whole), and still sends an `events` object to Amplitude.
  func testTheSharedBatchPathDecodesPostHogLazilyAndAmplitudeAsBefore() throws {
    let many = events(1_000).joined(separator: ",")
    let posthog = request(#"{"api_key":"k","batch":[\#(many)]}"#)
    let shared = BatchEndpoint().handleLazily(posthog)
    XCTAssertNotNil(shared.batch)
    XCTAssertEqual(shared.batch.map { $0.events(0..<$0.count) }, PostHogEndpoint().handle(posthog).events)
    let amplitude = request(
      #"{"api_key":"k","events":[{"event_type":"Play","user_id":"user-42","event_properties":{"n":1}}]}"#)
    let reply = BatchEndpoint().handleLazily(amplitude)
    XCTAssertNil(reply.batch)
    XCTAssertEqual(reply.events.map(\.provider), ["amplitude"])
    XCTAssertEqual(reply.events, AmplitudeEndpoint(isBatchAPI: true).handle(amplitude).events)
    XCTAssertFalse(BatchEndpoint.isAmplitude(Array(#"{"events":[],"batch":[]}"#.utf8)))
    XCTAssertFalse(BatchEndpoint.isAmplitude(Array(#"{"events":[]} trailing"#.utf8)))
  }

  func testALargeBatchDecodedSliceBySliceGivesTheEventsOfTheWholeDecoding() throws {
    let many = events(1_000).joined(separator: ",")
    assertSameAsWhole(request(#"{"api_key":"k","batch":[\#(many)]}"#), lazy: true)
    assertSameAsWhole(request(#" {"batch":[\#(many)],"api_key":"k","batch":[\#(many)]} "#), lazy: true)
    assertSameAsWhole(request("[" + events(600, ownKeys: true).joined(separator: ",") + "]"), lazy: true)
    let encoded = Data(#"{"api_key":"k","batch":[\#(many)]}"#.utf8).base64EncodedString()
      .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    assertSameAsWhole(
      request("data=\(encoded)", contentType: "application/x-www-form-urlencoded"), lazy: true)
    // Small batches and single events are decoded at once, as before.
    assertSameAsWhole(
      request(#"{"api_key":"k","batch":[\#(events(10).joined(separator: ","))]}"#), lazy: false)
    assertSameAsWhole(request(#"{"api_key":"k","event":"one"}"#, path: "/e/"), lazy: false)
  }

  func testABadEventDeepInALargeBatchRefusesItAsTheWholeDecodingDoes() throws {
    var list = events(900)
    list[700] = #"{"distinct_id":"no name"}"#
    assertSameAsWhole(request(#"{"api_key":"k","batch":[\#(list.joined(separator: ","))]}"#), lazy: false)
    list[700] = "17"
    assertSameAsWhole(request(#"{"api_key":"k","batch":[\#(list.joined(separator: ","))]}"#), lazy: false)
    let unkeyed = events(900)
    assertSameAsWhole(request("[" + unkeyed.joined(separator: ",") + "]"), lazy: false)
    assertSameAsWhole(request(#"{"api_key":"k","batch":[\#(list.joined(separator: ","))"#), lazy: false)
  }

  func testTheBatchsKeysAreWhatTheTokenChecks() throws {
    let reply = PostHogEndpoint().handleLazily(
      request("[" + events(600, ownKeys: true).joined(separator: ",") + "]"))
    let batch = try XCTUnwrap(reply.batch)
    XCTAssertEqual(batch.credentials, ["k-0", "k-1", "k-2"])
    XCTAssertFalse(try XCTUnwrap(TokenCheck("k-0")).authorizes(credentials: batch.credentials))
    let single = PostHogEndpoint().handleLazily(
      request(#"{"api_key":"k-0","batch":[\#(events(600).joined(separator: ","))]}"#))
    XCTAssertTrue(
      try XCTUnwrap(TokenCheck("k-0")).authorizes(credentials: try XCTUnwrap(single.batch).credentials))
  }

  func testTheServerRecordsEveryEventOfALargeBatchInOrder() async throws {
    let (server, collector) = try await startServer()
    let count = 5_000
    let body =
      #"{"api_key":"k","batch":["# + (0..<count).map { #"{"event":"e\#($0)"}"# }.joined(separator: ",") + "]}"
    let reply = try httpRequest(port: server.port, path: "/batch/", body: body)
    let records = collector.waitForRecords(count)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(records.map(\.name), (0..<count).map { "e\($0)" })
  }
}
