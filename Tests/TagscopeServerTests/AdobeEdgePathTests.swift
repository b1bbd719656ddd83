import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import TagscopeVendors
import XCTest

@testable import TagscopeServer

/// Adobe Edge paths besides v1 interact, collect and set-consent and v2: the Web SDK's identity
/// request (`/ee/v1/identity/acquire`), Media Edge's `/ee/va/v1/<event>`, and paths of a version or
/// operation Tagscope does not read (`/ee/v3/interact`), which `listen` answered with a bare `404`
/// and the proxy forwarded unreported: now refused with their path and what Tagscope reads.
final class AdobeEdgePathTests: XCTestCase {
  /// adobe/alloy `createIdentityPayload` (`query.identity.fetch`), with the identity map and
  /// `meta` the Web SDK adds to every Edge request.
  static let acquire =
    #"{"query":{"identity":{"fetch":["ECID"]}},"meta":{"state":{"domain":"example.com"}},"#
    + #""xdm":{"identityMap":{"ECID":[{"id":"41920000000000000000000000000000000001"}]}}}"#

  /// aepsdk-edge-android @ f607561cf7301e22deaabdcdf838844127e52186 `EdgePathOverwriteTests`: an
  /// experience event whose `request.path` is Media Edge's, sent as an interact body; the
  /// event type is Media Edge's session start.
  static let mediaStart =
    #"{"events":[{"xdm":{"_id":"m-1","eventType":"media.sessionStart","#
    + #""mediaCollection":{"playhead":0,"sessionDetails":{"name":"ep-1","length":1800}},"#
    + #""timestamp":"2026-11-29T09:00:00.000Z"}}],"#
    + #""meta":{"konductorConfig":{"streaming":{"enabled":true}}},"#
    + #""xdm":{"identityMap":{"ECID":[{"id":"ecid-m"}]}}}"#

  func testPathsAreReadIntoTheirParts() {
    let cases: [(String, Vendor.AdobeEdgePath?)] = [
      ("/ee/v1/interact", Vendor.AdobeEdgePath(version: "v1", isMedia: false, operation: "interact")),
      (
        "/ee/or2/v1/identity/acquire/",
        Vendor.AdobeEdgePath(version: "v1", isMedia: false, operation: "identity/acquire")
      ),
      (
        "/ee/va/v1/sessionStart",
        Vendor.AdobeEdgePath(version: "v1", isMedia: true, operation: "sessionStart")
      ),
      ("/ee-pre-prd/irl1/va/v1/play", Vendor.AdobeEdgePath(version: "v1", isMedia: true, operation: "play")),
      ("/ee/v3/interact", Vendor.AdobeEdgePath(version: "v3", isMedia: false, operation: "interact")),
      ("/ee/v1", nil), ("/ee/a/b/c/v1/interact", nil), ("/ee/or2/x/v1/interact", nil),
      ("/api/v1/interact", nil),
      ("/ee/v1/", nil), ("/ee/o r/v1/interact", nil),
    ]
    for (path, expected) in cases {
      XCTAssertEqual(Vendor.AdobeEdgePath(path), expected, path)
    }
  }

  func testAnIdentityRequestIsOneRecordAnsweredWithItsECID() throws {
    let reply = try XCTUnwrap(
      endpointReply(
        "/ee/v1/identity/acquire", body: Self.acquire, query: [("configId", "c-1"), ("requestId", "r-1")]))
    XCTAssertEqual(reply.status, .ok)
    XCTAssertEqual(
      reply.body,
      "\u{0}{\"requestId\":\"r-1\",\"handle\":[{\"payload\":[{\"id\":\"41920000000000000000000000000000000001\","
        + "\"namespace\":{\"code\":\"ECID\"}}],\"type\":\"identity:result\"}]}\n")
    let event = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(reply.events.count, 1)
    XCTAssertEqual(event.provider, "adobe")
    XCTAssertEqual(event.kind, .identify, "not a tag a plan judges")
    XCTAssertEqual(event.name, "identity_acquire")
    XCTAssertEqual(
      event.call, CallDescription(method: "getIdentity", name: nil, parameters: ["namespaces": ["ECID"]]))
    XCTAssertEqual(event.identity.deviceID, "41920000000000000000000000000000000001")
    XCTAssertEqual(event.annotations["config_id"], "c-1")
    XCTAssertEqual(Payload.object(event.annotations["request"]).keys, ["meta", "xdm"])
    XCTAssertTrue(event.violations.isEmpty)

    // No ECID yet (a first visit): Edge mints one, 38 digits.
    let first = try XCTUnwrap(
      endpointReply("/ee/or2/v1/identity/acquire", body: #"{"query":{"identity":{"fetch":["ECID"]}},"x":1}"#))
    let idStart = try XCTUnwrap(first.body.range(of: #""id":""#)).upperBound
    let minted = first.body[idStart...].prefix { $0 != "\"" }
    XCTAssertEqual(minted.count, 38, first.body)
    XCTAssertTrue(minted.allSatisfy(\.isNumber))
    let odd = try XCTUnwrap(first.events.first)
    XCTAssertEqual(FieldAccount.places(in: odd.annotations), ["x"], "an unknown key reported with its place")

    let asksNothing = try XCTUnwrap(endpointReply("/ee/v1/identity/acquire", body: #"{"query":{}}"#))
    XCTAssertEqual(asksNothing.status, .badRequest)
    XCTAssertEqual(asksNothing.rejection, .invalidPayload)
  }

  func testMediaEdgeEventsAreReadAsInteract() throws {
    for path in ["/ee/va/v1/sessionStart", "/ee/or2/va/v1/sessionStart"] {
      let reply = try XCTUnwrap(endpointReply(path, body: Self.mediaStart))
      XCTAssertEqual(reply.status, .ok, path)
      let event = try XCTUnwrap(reply.events.first)
      XCTAssertEqual(event.name, "media.sessionStart")
      XCTAssertEqual(event.call.method, "sendEvent")
      XCTAssertEqual(event.messageID, "m-1")
      XCTAssertEqual(event.identity.deviceID, "ecid-m")
      XCTAssertTrue(event.violations.isEmpty, path)
    }
  }

  /// An Edge path Tagscope does not read is refused with its path and what it reads, never decoded
  /// by a guess; the body is not even parsed.
  func testUnknownVersionsAndOperationsAreRefusedWithTheirPlace() throws {
    for (path, words) in [
      ("/ee/v3/interact", "Edge API version v3 is not one Tagscope reads"),
      ("/ee/or2/v9/collect", "Edge API version v9 is not one Tagscope reads"),
      ("/ee/va/v2/sessionStart", "Media Edge Edge API version v2"),
      ("/ee/v1/identity/other", "Edge v1 operation identity/other is not one Tagscope reads"),
      ("/ee/v2/privacy/set-consent", "Edge v2 operation privacy/set-consent"),
    ] {
      let reply = try XCTUnwrap(endpointReply(path, body: "not even JSON"))
      XCTAssertEqual(reply.status, .notFound, path)
      XCTAssertEqual(reply.rejection, .unknownEndpoint, path)
      XCTAssertTrue(reply.body.contains(path), reply.body)
      XCTAssertTrue(reply.body.contains(words), reply.body)
      XCTAssertEqual(reply.events.count, 0)
    }
  }

  /// Through a real `listen`: the unknown version is refused and reported with its path, the
  /// others recorded.
  func testListenRecordsAndReportsThem() async throws {
    let (server, collector) = try await startServer()
    let unknown = try httpRequest(port: server.port, path: "/ee/v3/interact", body: Self.mediaStart)
    XCTAssertEqual(unknown?.status, 404)
    let acquire = try httpRequest(port: server.port, path: "/ee/v1/identity/acquire", body: Self.acquire)
    XCTAssertEqual(acquire?.status, 200)
    let media = try httpRequest(port: server.port, path: "/ee/va/v1/sessionStart", body: Self.mediaStart)
    XCTAssertEqual(media?.status, 200)
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["identity_acquire", "media.sessionStart"])
    XCTAssertEqual(server.statistics.rejected[.unknownEndpoint], 1)
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertTrue(problems.contains { $0.contains("/ee/v3/interact") }, "\(problems)")
    try await server.shutdown()
  }
}
