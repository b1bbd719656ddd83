import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Adobe Experience Platform Edge's consent requests (`/ee/v1/privacy/set-consent`) and the Edge
/// Network Server API's `/ee/v2/interact` and `/ee/v2/collect`, which `listen` answered `404` and
/// the proxy forwarded unrecorded: a consent request is the hub's consent record for provider
/// `adobe`; a v2 request's events are recorded as v1's, answered as the API contract says.
final class AdobeEdgeConsentAndV2Tests: XCTestCase {
  /// aepsdk-edge-android @ f607561cf7301e22deaabdcdf838844127e52186 `EdgeConsentUpdate`,
  /// `RequestBuilder.getConsentPayload`: the consents (`collect.val`, `metadata.time`) as the Edge
  /// Consent extension's `update` gives them, the identity map at the top, streaming asked.
  static func consent(_ value: String, ecid: String = "ecid-7") -> String {
    #"{"meta":{"konductorConfig":{"streaming":{"enabled":true,"recordSeparator":"\u0000","lineFeed":"\n"}}},"#
      + #""query":{"consent":{"operation":"update"}},"#
      + #""identityMap":{"ECID":[{"id":""# + ecid + #"","authenticatedState":"ambiguous","primary":false}]},"#
      + #""consent":[{"standard":"Adobe","version":"2.0","value":{"collect":{"val":""# + value
      + #""},"metadata":{"time":"2026-11-29T09:00:00.500Z"}}}]}"#
  }

  /// The Server API contract's `SingleEventRequest` (Adobe's interactive data collection page's
  /// example: `event` with `xdm.identityMap`, `eventType`, `web`, `timestamp`, and `data`).
  static let serverInteract =
    #"{"event":{"xdm":{"identityMap":{"Email_LC_SHA256":[{"id":"0c7e","primary":true}]},"#
    + #""eventType":"web.webpagedetails.pageViews","web":{"webPageDetails":{"name":"home"}},"#
    + #""timestamp":"2021-08-09T14:09:20.859Z"},"data":{"prop1":"custom value"}}}"#

  /// `BatchV2Request`: events of two users, each naming its own.
  static let serverCollect =
    #"{"events":[{"xdm":{"identityMap":{"ECID":[{"id":"ecid-a"}]},"eventType":"commerce.purchases","#
    + #""timestamp":"2026-11-29T09:00:01.000Z"}},{"xdm":{"identityMap":{"ECID":[{"id":"ecid-b"}]},"#
    + #""eventType":"commerce.productViews","timestamp":"2026-11-29T09:00:02.000Z"}}],"#
    + #""query":{"identity":{"fetch":[]}}}"#

  func testASetConsentIsTheHubsConsentRecordForAdobe() throws {
    for (path, value, granted) in [
      ("/ee/v1/privacy/set-consent", "n", false), ("/ee/or2/v1/privacy/set-consent", "y", true),
    ] {
      let reply = try XCTUnwrap(
        endpointReply(path, body: Self.consent(value), query: [("configId", "c-1"), ("requestId", "r-1")]))
      XCTAssertEqual(reply.status, .ok, path)
      XCTAssertEqual(reply.body, "\u{0}{\"requestId\":\"r-1\",\"handle\":[]}\n")
      let event = try XCTUnwrap(reply.events.first)
      XCTAssertEqual(reply.events.count, 1)
      XCTAssertEqual(event.provider, "adobe")
      XCTAssertEqual(event.kind, .consent)
      XCTAssertEqual(event.name, "consent")
      XCTAssertEqual(
        ConsentChange(properties: event.properties),
        ConsentChange(scope: .provider("adobe"), granted: granted),
        "read as the hub's own consent records are")
      XCTAssertEqual(event.call.method, "setConsent")
      XCTAssertEqual(
        Payload.object(event.call.parameters["value"])["collect"], .object(["val": .string(value)]))
      XCTAssertEqual(event.identity.deviceID, "ecid-7", "the same device as its interact calls")
      XCTAssertEqual(event.time.map { Int(($0.timeIntervalSince1970 * 1000).rounded()) }, 1_795_942_800_500)
      XCTAssertEqual(event.annotations["config_id"], "c-1")
      XCTAssertEqual(Payload.object(event.annotations["request"]).keys, ["meta", "query", "identityMap"])
      XCTAssertNil(event.annotations["problems"], "every key known")
    }
  }

  /// A value that decides nothing Tagscope reads (pending, another standard) is recorded without
  /// `granted` and says why; a request without consent is refused.
  func testAnUndecidedOrForeignConsentIsKeptAndSaysWhy() throws {
    let pending = try XCTUnwrap(endpointReply("/ee/v1/privacy/set-consent", body: Self.consent("p")))
    let event = try XCTUnwrap(pending.events.first)
    XCTAssertEqual(event.kind, .consent)
    XCTAssertNil(event.properties["granted"])
    XCTAssertEqual(
      event.annotations["problems"],
      .array([.string(#"consent[0].value.collect.val: "p", not y or n: no decision recorded"#)]))
    let tcf = #"{"consent":[{"standard":"IAB TCF","version":"2.0","value":"CO1","gdprApplies":true}],"x":1}"#
    let foreign = try XCTUnwrap(endpointReply("/ee/v1/privacy/set-consent", body: tcf)?.events.first)
    XCTAssertEqual(
      foreign.annotations["problems"],
      .array([#"consent[0].standard: "IAB TCF", not Adobe's: no decision recorded"#]))
    XCTAssertEqual(foreign.call.parameters["gdprApplies"], .bool(true), "IAB TCF's own key, kept")
    XCTAssertEqual(Payload.object(foreign.annotations["unread"]), ["x": 1], "the request's key not known")
    for body in [#"{"consent":[]}"#, #"{"identityMap":{}}"#, #"{"consent":[1]}"#, "{"] {
      let refused = try XCTUnwrap(endpointReply("/ee/v1/privacy/set-consent", body: body))
      XCTAssertEqual(refused.status, .badRequest, body)
      XCTAssertEqual(refused.events.count, 0)
    }
  }

  /// `/ee/v2/interact` takes one `event` and answers plain JSON; `/ee/v2/collect` takes events of
  /// many users, each its own sender, and answers `202` with the request id (`204` when silent).
  func testServerAPIRequestsAreRecordedAsV1sAndAnsweredAsTheContractSays() throws {
    let interact = try XCTUnwrap(
      endpointReply(
        "/ee/v2/interact", body: Self.serverInteract, query: [("datastreamId", "ds-1"), ("requestId", "r-2")])
    )
    XCTAssertEqual(interact.status, .ok)
    XCTAssertEqual(interact.body, #"{"requestId":"r-2","handle":[]}"#)
    let event = try XCTUnwrap(interact.events.first)
    XCTAssertEqual(event.name, "web.webpagedetails.pageViews")
    XCTAssertEqual(event.call.method, "sendEvent")
    XCTAssertEqual(Payload.object(event.properties["data"])["prop1"], "custom value")
    XCTAssertEqual(event.annotations["config_id"], "ds-1")
    XCTAssertNil(event.annotations["problems"])

    let collect = try XCTUnwrap(
      endpointReply("/ee/v2/collect", body: Self.serverCollect, query: [("requestId", "r-3")]))
    XCTAssertEqual(collect.status, .accepted)
    XCTAssertEqual(collect.body, #"{"requestId":"r-3"}"#)
    XCTAssertEqual(collect.events.map(\.name), ["commerce.purchases", "commerce.productViews"])
    XCTAssertEqual(collect.events.map(\.identity.deviceID), ["ecid-a", "ecid-b"])
    let silent = try XCTUnwrap(
      endpointReply("/ee/v2/collect", body: Self.serverCollect, query: [("silent", "true")]))
    XCTAssertEqual(silent.status, .noContent)

    // A v1 body on v2 interact (no `event`) is refused, with Edge's problem document.
    let wrong = try XCTUnwrap(endpointReply("/ee/v2/interact", body: AdobeWireFixtures.edgeTwoEvents))
    XCTAssertEqual(wrong.status, .badRequest)
    XCTAssertTrue(wrong.body.contains("an event object"), wrong.body)
    // An Edge path of another version or operation is refused with its path (``AdobeEdgePathTests``).
    for path in ["/ee/v3/interact", "/ee/v2/privacy/set-consent", "/ee/v1/privacy"] {
      XCTAssertEqual(endpointReply(path, body: Self.serverInteract)?.rejection, .unknownEndpoint, path)
    }
    guard case .notFound = EndpointRouter.route(method: .POST, path: "/ee/or2/x/v2/collect") else {
      return XCTFail("/ee/or2/x/v2/collect is routed")
    }
  }

  /// Through a real `listen`: each answered as Edge answers, each a record of provider `adobe`.
  func testListenRecordsConsentAndServerAPIRequests() async throws {
    let (server, collector) = try await startServer()
    let consent = try httpRequest(
      port: server.port, path: "/ee/v1/privacy/set-consent?configId=c-1&requestId=r-1",
      body: Self.consent("n"))
    XCTAssertEqual(consent?.status, 200)
    XCTAssertEqual(consent?.body, "\u{0}{\"requestId\":\"r-1\",\"handle\":[]}\n")
    let interact = try httpRequest(
      port: server.port, path: "/ee/v2/interact?datastreamId=ds-1&requestId=r-2", body: Self.serverInteract)
    XCTAssertEqual(interact?.status, 200)
    let collect = try httpRequest(port: server.port, path: "/ee/v2/collect", body: Self.serverCollect)
    XCTAssertEqual(collect?.status, 202)
    let records = collector.waitForRecords(4)
    XCTAssertEqual(
      records.map(\.name),
      ["consent", "web.webpagedetails.pageViews", "commerce.purchases", "commerce.productViews"])
    XCTAssertEqual(records.first?.kind, .consent)
    XCTAssertEqual(records.first?.properties["granted"], .bool(false))
    XCTAssertEqual(Set(records.compactMap { $0.outputs.first?.provider }), ["adobe"])
    try await server.shutdown()
  }
}
