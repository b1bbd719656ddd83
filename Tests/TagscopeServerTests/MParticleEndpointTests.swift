import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// mParticle's Events API as its server SDKs send it (the body shape of
/// mParticle/mparticle-python-sdk's `Batch`, `AppEvent`, `ScreenViewEvent`, `CommerceEvent`):
/// each event a record, refusals in mParticle's `errors[]` shape and nothing recorded.
final class MParticleEndpointTests: XCTestCase {
  private static let batch = """
    {"events": [
      {"data": {"screen_name": "Home", "session_id": 77}, "event_type": "screen_view"},
      {"data": {"event_name": "Choose Item", "custom_event_type": "other",
        "custom_attributes": {"quantity": 2, "milk": true, "item": "cortado"},
        "timestamp_unixtime_ms": 1552596256103}, "event_type": "custom_event"},
      {"data": {"product_action": {"action": "purchase", "total_amount": 3.5}}, "event_type": "commerce_event"},
      {"data": {}, "event_type": "session_start"}],
     "device_info": {"platform": "Android", "device_model": "Pixel 8", "android_uuid": "a-uuid-1"},
     "application_info": {"package": "com.freddys.app"},
     "user_identities": {"email": "ann@example.com"}, "mpid": 600868121729048600,
     "environment": "development"}
    """

  private func request(
    _ path: String, _ body: String, auth: String? = "mp-key:mp-secret",
    contentType: String = "application/json"
  ) -> ReceivedRequest {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: contentType)
    if let auth {
      headers.add(name: "Authorization", value: "Basic " + Data(auth.utf8).base64EncodedString())
    }
    return ReceivedRequest(
      method: .POST, path: path, query: [], headers: headers, body: Array(body.utf8), peerHost: "127.0.0.1")
  }

  private func endpoint(_ path: String) throws -> any SDKEndpoint {
    guard case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: path) else {
      throw XCTSkip("no endpoint at \(path)")
    }
    return endpoint
  }

  func testABatchIsOneRecordPerEventAndTheReplyIs202() throws {
    let reply = try endpoint("/v2/events").handle(request("/v2/events", Self.batch))
    XCTAssertEqual(reply.status, .accepted)
    XCTAssertNil(reply.rejection)
    XCTAssertEqual(
      reply.events.map { "\($0.kind.rawValue) \($0.name) \($0.call.method)" },
      [
        "screen Home logScreen", "event Choose Item logEvent", "event purchase logCommerceEvent",
        "event session_start session_start",
      ])
    let choose = reply.events[1]
    XCTAssertEqual(choose.properties, ["quantity": 2, "milk": true, "item": "cortado"])
    XCTAssertEqual(
      choose.call.parameters["data"].flatMap { Payload.objectOrNil($0) }?["custom_attributes"],
      ["quantity": 2, "milk": true, "item": "cortado"], "the call is the event as sent")
    XCTAssertEqual(choose.time?.timeIntervalSince1970 ?? 0, 1_552_596_256.103, accuracy: 0.001)
    XCTAssertEqual(choose.credentials, ["api_key": "mp-key"])
    let identity = reply.events[0].identity
    XCTAssertEqual(identity.deviceID, "a-uuid-1")
    XCTAssertEqual(identity.app, "com.freddys.app")
    XCTAssertEqual(identity.platform, "Android")
    XCTAssertEqual(identity.model, "Pixel 8")
    XCTAssertEqual(identity.userID, "ann@example.com")
    XCTAssertEqual(identity.anonymousID, "600868121729048600")
    XCTAssertEqual(identity.sessionID, "77")
  }

  func testBulkEventsTakeAnArrayOfBatches() throws {
    let reply = try endpoint("/v2/bulkevents").handle(
      request("/v2/bulkevents", "[\(Self.batch), \(Self.batch)]"))
    XCTAssertEqual(reply.status, .accepted)
    XCTAssertEqual(reply.events.count, 8)
    let tooMany = "[" + Array(repeating: #"{"events": []}"#, count: 101).joined(separator: ",") + "]"
    let refused = try endpoint("/v2/bulkevents").handle(request("/v2/bulkevents", tooMany))
    XCTAssertEqual(refused.status, .badRequest)
    XCTAssertEqual(refused.rejection, .tooManyEvents)
  }

  func testRefusalsAreMParticlesErrorsAndRecordNothing() throws {
    let events = try endpoint("/v2/events")
    let cases: [(ReceivedRequest, HTTPResponseStatus, RejectionReason, String)] = [
      (request("/v2/events", Self.batch, auth: nil), .unauthorized, .invalidPayload, "UNAUTHORIZED"),
      (request("/v2/events", "{not json"), .badRequest, .malformedJSON, "BAD_REQUEST"),
      (request("/v2/events", "[]"), .badRequest, .invalidPayload, "BAD_REQUEST"),
      (request("/v2/events", #"{"events": [{"data": {}}]}"#), .badRequest, .invalidPayload, "BAD_REQUEST"),
      (
        request("/v2/events", #"{"events": [{"event_type": "custom_event"}]}"#), .badRequest, .invalidPayload,
        "BAD_REQUEST"
      ),
      (
        request("/v2/events", Self.batch, contentType: "text/xml"), .badRequest, .wrongContentType,
        "BAD_REQUEST"
      ),
    ]
    for (index, (request, status, reason, code)) in cases.enumerated() {
      let reply = events.handle(request)
      XCTAssertEqual(reply.status, status, "case \(index)")
      XCTAssertEqual(reply.rejection, reason, "case \(index)")
      XCTAssertTrue(reply.events.isEmpty, "case \(index)")
      guard case .object(let body)? = try? JSONParser.parse(reply.body),
        case .array(let errors)? = body["errors"], case .object(let first)? = errors.first
      else { return XCTFail("case \(index): \(reply.body)") }
      XCTAssertEqual(first["code"], .string(code), "case \(index)")
      XCTAssertNotNil(first["message"], "case \(index)")
    }
  }

  /// The web SDK posts the same batches as `text/plain` to `/v3/JS/<key>/events`, the key in the path.
  func testTheWebSDKsPathCarriesTheKey() throws {
    for path in ["/v3/JS/us1-web-key/events", "/webevents/v3/JS/us1-web-key/events"] {
      let reply = try endpoint(path).handle(
        request(path, Self.batch, auth: nil, contentType: "text/plain;charset=UTF-8"))
      XCTAssertEqual(reply.status, .accepted, path)
      XCTAssertEqual(reply.events.count, 4, path)
      XCTAssertEqual(reply.events.first?.credentials, ["api_key": "us1-web-key"], path)
    }
    for path in ["/v3/JS//events", "/v3/JS/a/b/events", "/v3/JS/key/config"] {
      guard case .notFound = EndpointRouter.route(method: .POST, path: path) else {
        return XCTFail("\(path) is not an upload path")
      }
    }
  }

  func testTheAPIKeyIsTheTokenListenChecks() throws {
    let reply = try endpoint("/v2/events").handle(request("/v2/events", Self.batch, auth: "tok-123:secret"))
    XCTAssertTrue(TokenCheck("tok-123")?.authorizes(events: reply.events) ?? false)
    XCTAssertFalse(TokenCheck("secret")?.authorizes(events: reply.events) ?? true)
  }
}
