import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// mParticle's IDSync calls (`/v1/identify`, `/v1/login`, `/v1/logout`, `/v1/<mpid>/modify`, and
/// under `/identity/v1/` behind a custom base URL) and config request (`/v4/<key>/config`), with
/// the fields mParticle/mparticle-android-sdk `MParticleIdentityClientImpl.java` sends.
final class MParticleIdentityEndpointTests: XCTestCase {
  private static let device = "7A1E3C44-2B9D-4F6E-8C0A-55D1E2F3A4B6"

  private func body(_ identities: String) -> [UInt8] {
    Array(
      """
      {"client_sdk":{"platform":"android","sdk_vendor":"mparticle","sdk_version":"5.62.0"},
       "environment":"development","request_id":"r-1",
       "known_identities":{"device_application_stamp":"\(Self.device)"\(identities)}}
      """.utf8)
  }

  private func send(_ path: String, _ body: [UInt8]) throws -> SDKReply {
    guard case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: path) else {
      throw XCTSkip("no endpoint at \(path)")
    }
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "x-mp-key", value: "us1-abc")
    return endpoint.handle(
      ReceivedRequest(
        method: .POST, path: path, query: [], headers: headers, body: body, peerHost: "127.0.0.1"))
  }

  private func answer(_ reply: SDKReply) throws -> Properties {
    try Payload.object(JSONParser.parse(Array(reply.body.utf8)))
  }

  func testEachCallIsAnsweredWithAStableMPIDAndRecordedAsAnIdentify() throws {
    var mpids: [String] = []
    for (path, identities, loggedIn) in [
      ("/v1/identify", "", false), ("/v1/login", #","customerid":"cust-42""#, true),
      ("/identity/v1/logout", "", false), ("/identity/v1/identify", #","email":"ann@example.com""#, true),
    ] {
      let reply = try send(path, body(identities))
      XCTAssertEqual(reply.status, .ok, path)
      let answer = try answer(reply)
      XCTAssertEqual(answer["is_logged_in"], .bool(loggedIn), path)
      XCTAssertEqual(answer["context"], "tagscope")
      mpids.append(try XCTUnwrap(Payload.string(answer["mpid"]), path))
      let record = try XCTUnwrap(reply.events.first, path)
      XCTAssertEqual(reply.events.count, 1)
      XCTAssertEqual(record.kind, .identify)
      XCTAssertEqual(record.name, String(path.split(separator: "/").last ?? ""))
      XCTAssertEqual(record.provider, "mparticle")
      XCTAssertEqual(record.identity.deviceID, Self.device)
      XCTAssertEqual(record.credentials, ["api_key": "us1-abc"])
    }
    XCTAssertEqual(Set(mpids).count, 1, "one device, one mpid: \(mpids)")
    XCTAssertNotEqual(MParticleIdentityEndpoint.mpid(device: "other"), mpids[0])
    XCTAssertEqual(
      try send("/v1/login", body(#","customerid":"cust-42""#)).events.first?.identity.userID, "cust-42")
  }

  func testModifyKeepsThePathsMPIDAndRecordsTheChanges() throws {
    let change = Array(
      #"{"client_sdk":{"platform":"ios"},"identity_changes":[{"identity_type":"email","old_value":null,"new_value":"bo@example.com"}]}"#
        .utf8)
    let reply = try send("/v1/6008681217290486000/modify", change)
    XCTAssertEqual(reply.status, .ok)
    XCTAssertEqual(Payload.string(try answer(reply)["mpid"]), "6008681217290486000")
    XCTAssertEqual(try answer(reply)["change_results"], [])
    let record = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(record.name, "modify")
    XCTAssertEqual(record.properties, ["email": "bo@example.com"])
    XCTAssertEqual(record.identity.userID, "bo@example.com")
  }

  func testSegmentsIdentifyAtTheSamePathStaysSegments() throws {
    let reply = try send("/v1/identify", Array(#"{"userId":"u-1","traits":{"plan":"pro"}}"#.utf8))
    XCTAssertEqual(reply.status, .ok)
    XCTAssertEqual(reply.events.first?.provider, "segment")
    XCTAssertEqual(reply.events.first?.properties, ["plan": "pro"])
  }

  func testBadBodiesAreRefusedAndRecordNothing() throws {
    for body in ["not json", "[1]"] {
      let reply = try send("/v1/login", Array(body.utf8))
      XCTAssertEqual(reply.status, .badRequest, body)
      XCTAssertEqual(reply.events, [], body)
    }
  }

  func testTheConfigRequestIsAnsweredAndNotAnEndpoint() {
    for path in ["/v4/us1-abc/config", "/config/v4/us1-abc/config"] {
      guard case .settings(let reply) = EndpointRouter.route(method: .GET, path: path) else {
        return XCTFail("\(path) is mParticle's config request")
      }
      XCTAssertEqual(reply.body, #"{"dt":"ac"}"#)
      XCTAssertEqual(reply.events, [])
    }
    guard case .notFound = EndpointRouter.route(method: .POST, path: "/v1//modify") else {
      return XCTFail("a modify needs an mpid")
    }
  }

  func testHelpListsTheIdentityPathsOnce() {
    let paths = ListenEndpoints.eventPaths.map(\.path)
    for path in ["/v1/identify", "/v1/login", "/v1/logout", "/v1/MPID/modify", "/identity/v1/identify"] {
      XCTAssertEqual(paths.filter { $0 == path }.count, 1, path)
    }
  }

  func testTheProxyDecryptsTheIdentityHostsNotTheConfigHost() {
    let hosts = InterceptedHosts()
    for host in [
      "identity.mparticle.com", "identity.us1.mparticle.com", "tracking-identity.eu1.mparticle.com",
    ] {
      XCTAssertTrue(hosts.contains(host), host)
    }
    XCTAssertFalse(hosts.contains("config2.mparticle.com"))
  }
}
