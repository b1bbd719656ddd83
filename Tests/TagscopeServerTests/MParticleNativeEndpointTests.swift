import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// mParticle's iOS and Android SDK uploads (`/v2/<api key>/events`, short keys): each message the
/// record the Events API's event of its type gives, the reply the `{"dt":"rh"}` both SDKs read.
/// The fixture's sources are named in `Tests/Fixtures/mparticle-native/README.md`.
final class MParticleNativeEndpointTests: XCTestCase {
  private func fixture() throws -> [UInt8] {
    try Array(
      Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/mparticle-native/ios-batch.json")))
  }

  private func request(_ path: String, _ body: [UInt8], contentType: String = "application/json")
    -> ReceivedRequest
  {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: contentType)
    headers.add(name: "x-mp-signature", value: "3d1f0c")
    return ReceivedRequest(
      method: .POST, path: path, query: [], headers: headers, body: body, peerHost: "127.0.0.1")
  }

  private func endpoint(_ path: String) throws -> any SDKEndpoint {
    guard case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: path) else {
      throw XCTSkip("no endpoint at \(path)")
    }
    return endpoint
  }

  func testEachMessageIsTheRecordOfTheEventsAPIShape() throws {
    let reply = try endpoint("/v2/us1-abc/events").handle(request("/v2/us1-abc/events", fixture()))
    XCTAssertEqual(reply.status, .accepted)
    XCTAssertEqual(reply.body, #"{"dt":"rh"}"#)
    XCTAssertNil(reply.rejection)
    XCTAssertEqual(
      reply.events.map { "\($0.kind.rawValue) \($0.name) \($0.call.method)" },
      [
        "event session_start session_start", "screen Home logScreen", "event Choose Item logEvent",
        "event Choose Item logEvent",
      ])
    let choose = reply.events[2]
    XCTAssertEqual(choose.properties, ["quantity": "2", "milk": "true", "item": "cortado"])
    let data = try XCTUnwrap(choose.call.parameters["data"].flatMap { Payload.objectOrNil($0) })
    XCTAssertEqual(data["custom_attributes"], ["quantity": "2", "milk": "true", "item": "cortado"])
    XCTAssertEqual(data["custom_event_type"], "other")
    XCTAssertEqual(choose.call.parameters["event_type"], "custom_event")
    XCTAssertTrue(
      choose.raw.contains(#""quantity":"2""#), "the raw message keeps the text sent: \(choose.raw)")
    XCTAssertEqual(choose.time?.timeIntervalSince1970 ?? 0, 1_764_112_798, accuracy: 0.001)
    XCTAssertEqual(choose.credentials, ["api_key": "us1-abc"])
    let identity = choose.identity
    XCTAssertEqual(identity.deviceID, "7A1E3C44-2B9D-4F6E-8C0A-55D1E2F3A4B6")
    XCTAssertEqual(identity.app, "Freddy's")
    XCTAssertEqual(identity.platform, "iOS")
    XCTAssertEqual(identity.model, "iPhone15,2")
    XCTAssertEqual(identity.userID, "cust-42")
    XCTAssertEqual(identity.anonymousID, "6008681217290486000")
    XCTAssertEqual(identity.sessionID, "9F3B1C2D-7E4A-4B5C-8D6E-1A2B3C4D5E6F")
  }

  /// The batch's identities (`ui`): a known type is read by its Events API name (the customer id
  /// is the user); a type no SDK names, and an entry without a value, are reported by their place
  /// instead of dropped.
  func testIdentitiesNotUnderstoodAreReportedByTheirPlace() throws {
    let body = """
      {"dt":"h","mpid":1,"ui":[{"n":1,"i":"cust-1"},{"n":12,"i":"o-4"},{"n":99,"i":"x"},{"n":7}],
       "msgs":[{"dt":"e","ct":1,"n":"Tap","et":"Other","attrs":{}}]}
      """
    let path = "/v2/us1-abc/events"
    let reply = try endpoint(path).handle(request(path, Array(body.utf8)))
    XCTAssertEqual(reply.status, .accepted)
    let event = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(event.identity.userID, "cust-1")
    XCTAssertEqual(
      Payload.object(event.annotations["unread"]), ["ui[2].n": .int(99), "ui[3]": .object(["n": .int(7)])])
  }

  /// A batch without messages whose header carries user attributes and identities is one
  /// `identify` record (the attributes its properties, the header kept for a HAR rebuild), not
  /// dropped; so is one whose header holds a key not understood, which it reports. One with
  /// neither records nothing.
  func testABatchWithoutMessagesIsOneRecordOfItsHeader() throws {
    let body = #"{"dt":"h","mpid":3,"ua":{"tier":"gold"},"ui":[{"n":1,"i":"cust-3"}],"odd":1,"msgs":[]}"#
    let path = "/v2/us1-abc/events"
    let reply = try endpoint(path).handle(request(path, Array(body.utf8)))
    XCTAssertEqual(reply.status, .accepted)
    XCTAssertEqual(reply.events.map { "\($0.kind.rawValue) \($0.name)" }, ["identify identify"])
    let event = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(event.properties, ["tier": "gold"])
    XCTAssertEqual(event.identity.userID, "cust-3")
    XCTAssertEqual(event.annotations[MParticleEndpoint.batchOnlyKey], .bool(true))
    XCTAssertEqual(Payload.object(event.annotations["batch"])["ua"], .object(["tier": "gold"]))
    XCTAssertEqual(Payload.object(event.annotations["unread"]), ["odd": .int(1)])
    let unread = try endpoint(path).handle(request(path, Array(#"{"dt":"h","odd":2,"msgs":[]}"#.utf8)))
    XCTAssertEqual(unread.events.map { Payload.object($0.annotations["unread"]) }, [["odd": .int(2)]])
    let empty = try endpoint(path).handle(request(path, Array(#"{"dt":"h","mpid":3,"msgs":[]}"#.utf8)))
    XCTAssertEqual(empty.status, .accepted)
    XCTAssertEqual(
      empty.events.count, 0, "a batch that sets no user data and holds nothing unread records nothing")
  }

  /// A custom base URL's path, a commerce event, a user attribute change, Android's string mpid.
  func testCommerceUserAttributesAndTheCustomBaseURLPath() throws {
    let body = """
      {"dt":"h","mpid":"-8123","das":"d-1","ua":{"$Age":"40"},"ui":[{"n":7,"i":"a@b.c"}],
       "di":{"dp":"Android","anid":"android-1"},"ai":{"apn":"com.example"},
       "msgs":[{"dt":"cm","ct":1,"pd":{"an":"purchase","tr":3.5},"attrs":{"coupon":"A1"}},
               {"dt":"uac","n":"$Age","nv":"40","ov":null,"d":false,"na":true},
               {"dt":"bc","l":"tapped"}]}
      """
    let path = "/nativeevents/v2/us2-key/events"
    let reply = try endpoint(path).handle(request(path, Array(body.utf8)))
    XCTAssertEqual(reply.status, .accepted)
    XCTAssertEqual(
      reply.events.map { "\($0.kind.rawValue) \($0.name) \($0.call.method)" },
      [
        "event purchase logCommerceEvent", "identify identify user_attribute_change",
        "event breadcrumb breadcrumb",
      ])
    XCTAssertEqual(reply.events[0].properties, ["coupon": "A1"])
    XCTAssertEqual(
      reply.events[1].properties, ["$Age": "40"], "an identify's properties are the user attributes")
    XCTAssertEqual(reply.events[0].identity.userID, "a@b.c")
    XCTAssertEqual(reply.events[0].identity.anonymousID, "-8123")
    XCTAssertEqual(reply.events[0].identity.deviceID, "d-1")
    XCTAssertEqual(reply.events[0].identity.platform, "Android")
    XCTAssertEqual(reply.events[0].credentials, ["api_key": "us2-key"])
  }

  func testRefusalsRecordNothing() throws {
    let path = "/v2/us1-abc/events"
    let events = try endpoint(path)
    let cases: [(String, RejectionReason)] = [
      ("{not json", .malformedJSON), ("[]", .invalidPayload), (#"{"msgs": {}}"#, .invalidPayload),
      (#"{"msgs": [{"n": "no type"}]}"#, .invalidPayload), (#"{"msgs": [1]}"#, .invalidPayload),
    ]
    for (body, reason) in cases {
      let reply = events.handle(request(path, Array(body.utf8)))
      XCTAssertEqual(reply.status, .badRequest, body)
      XCTAssertEqual(reply.rejection, reason, body)
      XCTAssertTrue(reply.events.isEmpty, body)
      XCTAssertTrue(reply.body.contains(#""errors""#), body)
    }
    let wrongType = events.handle(request(path, try fixture(), contentType: "text/xml"))
    XCTAssertEqual(wrongType.rejection, .wrongContentType)
    let empty = events.handle(request(path, Array(#"{"dt":"h"}"#.utf8)))
    XCTAssertEqual(empty.status, .accepted, "a batch of no messages (reporting only) is taken")
    XCTAssertTrue(empty.events.isEmpty)
  }

  func testPathsThatAreNotUploads() {
    for path in ["/v2//events", "/v2/a/b/events", "/v2/key/config", "/nativeevents/v2//events"] {
      guard case .notFound = EndpointRouter.route(method: .POST, path: path) else {
        return XCTFail("\(path) is not an upload path")
      }
    }
    guard case .endpoint(let events) = EndpointRouter.route(method: .POST, path: "/v2/events") else {
      return XCTFail("/v2/events is the Events API")
    }
    XCTAssertTrue(events is MParticleEndpoint)
  }

  /// The SDKs' event type names in the Events API's spelling.
  func testEventTypeNamesInTheEventsAPIsSpelling() {
    XCTAssertEqual(MParticleNativeBatch.snakeCase("UserContent"), "user_content")
    XCTAssertEqual(MParticleNativeBatch.snakeCase("Other"), "other")
  }

  func testTheProxyDecryptsTheSDKsHosts() {
    let hosts = InterceptedHosts()
    for host in [
      "nativesdks.mparticle.com", "nativesdks.us1.mparticle.com", "tracking-nativesdks.eu1.mparticle.com",
    ] {
      XCTAssertTrue(hosts.contains(host), host)
    }
    XCTAssertFalse(hosts.contains("config2.mparticle.com"))
  }
}
