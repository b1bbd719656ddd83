import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The paths and set-up requests of the official SDKs as they send them by default, with request
/// shapes taken from their sources: Segment's analytics-swift (`POST /v1/b`, settings first),
/// analytics.js (single-letter paths, `text/plain` bodies, `/v1/m` telemetry), RudderStack
/// (`/sourceConfig`, the beacon batch) and PostHog (`/decide`, `/flags`).
final class SDKPathsTests: XCTestCase {
  /// A batch as analytics-swift uploads it: its own `Content-Type` and `User-Agent`, the write key in
  /// the body.
  private let swiftBatch = """
    {"batch":[{"type":"track","event":"Order Completed","properties":{"total":9.99},\
    "messageId":"7C2D1B9E-5E1A-4C7B-9A51-0E6C1A3F1D20","anonymousId":"0D7B3C84-4B8F-4F3E-A2E0-5E2B1D2F0A11",\
    "timestamp":"2026-11-23T10:00:00.000Z","integrations":{},\
    "context":{"library":{"name":"analytics-swift","version":"1.7.3"},"os":{"name":"iOS","version":"18.1"}}},\
    {"type":"screen","name":"Home","anonymousId":"0D7B3C84-4B8F-4F3E-A2E0-5E2B1D2F0A11","properties":{}}],\
    "sentAt":"2026-11-23T10:00:01.000Z","writeKey":"swift-key"}
    """

  func testAnalyticsSwiftReadsItsSettingsThenUploadsToV1B() async throws {
    let (server, collector) = try await startServer()
    let settings = try XCTUnwrap(
      try httpRequest(
        port: server.port, method: "GET", path: "/v1/projects/swift-key/settings", contentType: nil,
        headers: ["Host: 127.0.0.1:\(server.port)"], body: ""))
    XCTAssertEqual(settings.status, 200)
    guard case .object(let root) = try JSONParser.parse(settings.body),
      case .object(let integrations)? = root["integrations"],
      case .object(let segment)? = integrations["Segment.io"]
    else { return XCTFail(settings.body) }
    XCTAssertEqual(
      segment["apiHost"], .string("127.0.0.1:\(server.port)/v1"), "uploads stay pointed at listen")
    XCTAssertEqual(segment["apiKey"], "swift-key")
    XCTAssertNotNil(root["plan"])
    let upload = try httpRequest(
      port: server.port, path: "/v1/b", contentType: "application/json; charset=utf-8",
      headers: ["User-Agent: analytics-ios/1.7.3", "Accept-Encoding: gzip"], body: swiftBatch)
    XCTAssertEqual(upload?.status, 200, upload?.body ?? "")
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["Order Completed", "Home"])
    XCTAssertEqual(records.map(\.kind), [.event, .screen])
    XCTAssertEqual(server.statistics.totalRejected, 0)
  }

  func testAnalyticsJSSingleLetterPathsTextPlainAndTelemetry() async throws {
    let (server, collector) = try await startServer()
    let anonymous = #""anonymousId":"a1""#
    let calls: [(String, String)] = [
      ("/v1/t", #"{"type":"track","event":"Clicked",\#(anonymous)}"#),
      ("/v1/p", #"{"type":"page","name":"Pricing",\#(anonymous)}"#),
      ("/v1/i", #"{"type":"identify","userId":"u1","traits":{"plan":"pro"}}"#),
      ("/v1/g", #"{"type":"group","groupId":"g1","userId":"u1"}"#),
      ("/v1/a", #"{"type":"alias","previousId":"a1","userId":"u1"}"#),
      ("/v1/s", #"{"type":"screen","name":"Home",\#(anonymous)}"#),
    ]
    for (path, body) in calls {
      let reply = try httpRequest(port: server.port, path: path, contentType: "text/plain", body: body)
      XCTAssertEqual(reply?.status, 200, "\(path): \(reply?.body ?? "")")
    }
    let telemetry = try httpRequest(
      port: server.port, path: "/v1/m", contentType: "text/plain", body: #"{"series":[]}"#)
    XCTAssertEqual(telemetry?.status, 200)
    let preflight = try httpRequest(
      port: server.port, method: "OPTIONS", path: "/v1/projects/k/settings", contentType: nil, body: "")
    XCTAssertEqual(preflight?.status, 204)
    let records = collector.waitForRecords(6)
    try await server.shutdown()
    XCTAssertEqual(records.count, 6, "telemetry is not an event")
    XCTAssertEqual(records.map(\.kind), [.event, .screen, .identify, .event, .event, .screen])
    guard case .notFound = EndpointRouter.route(method: .GET, path: "/v1/projects/k/other") else {
      return XCTFail("only the settings path is taken under /v1/projects")
    }
  }

  func testRudderStackSourceConfigAndBeaconBatch() async throws {
    let (server, collector) = try await startServer()
    let configuration = try httpRequest(
      port: server.port, method: "GET", path: "/sourceConfig/?p=ios&v=1.31.0&build=3&writeKey=rudder-key",
      contentType: nil, body: "")
    XCTAssertEqual(configuration?.status, 200)
    guard case .object(let root)? = try? JSONParser.parse(configuration?.body ?? ""),
      case .object(let source)? = root["source"]
    else { return XCTFail(configuration?.body ?? "") }
    XCTAssertEqual(source["writeKey"], "rudder-key")
    XCTAssertEqual(source["enabled"], true)
    XCTAssertEqual(source["destinations"], [])
    let beacon = try httpRequest(
      port: server.port, path: "/beacon/v1/batch?writeKey=rudder-key",
      contentType: "text/plain;charset=UTF-8",
      body: #"{"batch":[{"type":"track","event":"Beaconed","anonymousId":"a","messageId":"m"}]}"#)
    XCTAssertEqual(beacon?.status, 200, beacon?.body ?? "")
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["Beaconed"])
  }

  func testPostHogFeatureFlagRequestsGetNoFlags() async throws {
    let (server, _) = try await startServer()
    for (method, path) in [
      ("POST", "/decide/?v=3"), ("POST", "/flags/?v=2&config=true"), ("GET", "/decide/"),
    ] {
      let reply = try httpRequest(
        port: server.port, method: method, path: path, body: #"{"token":"phc_k","distinct_id":"d"}"#)
      XCTAssertEqual(reply?.status, 200, path)
      guard case .object(let object)? = try? JSONParser.parse(reply?.body ?? "") else { return XCTFail(path) }
      XCTAssertEqual(object["featureFlags"], .object([:]), path)
      XCTAssertEqual(object["sessionRecording"], false, path)
    }
    try await server.shutdown()
    XCTAssertEqual(server.statistics.accepted, 0)
  }
}
