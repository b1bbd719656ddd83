import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Adobe's wire formats as `listen` decodes them: the Analytics mobile extension's hits and
/// Experience Platform Edge requests, from the SDKs' own test strings (``AdobeWireFixtures``),
/// recorded as the hub records its ``AdobeCall``s, and answered as Adobe answers.
final class AdobeEndpointTests: XCTestCase {
  private func hit(_ body: String, path: String = AdobeWireFixtures.hitPath) -> SDKReply? {
    endpointReply(path, body: body, contentType: "application/x-www-form-urlencoded")
  }

  private func annotations(_ event: IngestedEvent?) -> Properties { event?.annotations ?? [:] }

  func testATrackActionHitIsTheHubsTrackActionWithItsContextData() throws {
    let reply = try XCTUnwrap(hit(AdobeWireFixtures.actionHit))
    XCTAssertEqual(reply.status, .ok)
    XCTAssertEqual(reply.contentType, "image/gif")
    XCTAssertTrue(reply.body.hasPrefix("GIF89a"))
    let event = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(event.provider, "adobe")
    XCTAssertEqual(event.kind, .event)
    XCTAssertEqual(event.name, "testAction")
    XCTAssertEqual(
      event.call,
      CallDescription(method: "trackAction", name: "testAction", parameters: ["k1": "v1", "k2": "v2"]))
    XCTAssertEqual(event.properties, ["k1": "v1", "k2": "v2"])
    XCTAssertEqual(annotations(event)["sdk_context_data"], .object(["a.action": "testAction"]))
    XCTAssertEqual(annotations(event)["report_suites"], "acmersid")
    let variables = try XCTUnwrap(annotations(event)["variables"].flatMap(Payload.objectOrNil))
    XCTAssertEqual(variables["pev2"], "AMACTION:testAction")
    XCTAssertEqual(variables["t"], "00/00/0000 00:00:00 0 420")
    XCTAssertEqual(variables.keys, ["ndh", "ce", "t", "pe", "pev2", "aamb", "mid", "aamlh", "cp", "ts"])
    XCTAssertNil(annotations(event)["problems"], "every field read")
    XCTAssertEqual(event.identity.deviceID, "mid")
    XCTAssertEqual(event.time?.timeIntervalSince1970, 1_669_845_066)
    XCTAssertEqual(event.raw, AdobeWireFixtures.actionHit, "for the detail view; not recorded again")
  }

  /// Every field of a hit is in its record (variables, context data, report suite), so the
  /// record's line does not keep the hit's text again: a large value is on it twice (the
  /// properties and the call's parameters), not three times.
  func testAHitsRecordLineHoldsALargeValueTwice() throws {
    let value = String(repeating: "é\"&x ", count: 20_000)
    let body = AdobeWireFixtures.hit(
      method: "trackAction", name: "play", contextData: ["blob": value], ecid: "e", time: 1_764_400_000)
    let event = try XCTUnwrap(hit(body)?.events.first)
    XCTAssertEqual(event.properties["blob"], .string(value))
    XCTAssertFalse(event.recordsRaw)
    var devices = DeviceRegistry(limit: 8)
    let placement = devices.place(event, address: "127.0.0.1")
    let record = RecordMaker.record(
      event, seq: 1, source: placement.source, context: placement.context, received: Date())
    let line = RecordLineEncoder.line(record)
    let escaped = JSONText.value(.string(value)).utf8.count
    XCTAssertLessThan(line.utf8.count, 2 * escaped + 2_000, "the value twice and the rest")
    guard case .record(let read)? = try? RecordLineDecoder.decode(line) else { return XCTFail("unreadable") }
    XCTAssertEqual(read, record)
  }

  func testALifecycleHitIsTheSDKsOwnInternalAction() throws {
    let reply = try XCTUnwrap(hit(AdobeWireFixtures.lifecycleHit))
    let event = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(event.call.method, "internalAction")
    XCTAssertEqual(event.name, "Lifecycle")
    XCTAssertEqual(event.properties["a.Launches"], "1")
    XCTAssertEqual(event.properties["a.OSVersion"], "Android 4.3")
    XCTAssertEqual(event.properties["a.CarrierName"], "")
    XCTAssertEqual(event.properties["a.AppID"], "My Application 1.0 (1)")
    XCTAssertEqual(event.properties.count, 15)
    XCTAssertEqual(event.identity.deviceID, "45872199741202307594993613744306256830")
    XCTAssertNil(annotations(event)["problems"])
    // The SDK's own call is not judged by the rules for an app's context data (its `a.` keys).
    var violations: [RuleViolation] = []
    AdobeRules.check([event.call], into: &violations)
    XCTAssertEqual(violations, [])
  }

  func testATrackStateHitIsAScreenAndNestedKeysComeBackDotted() throws {
    let body = AdobeWireFixtures.hit(
      method: "trackState", name: "podcasts",
      contextData: ["podcast.title": "Swift & Sundell", "plan": "pro"],
      ecid: "ecid-1", time: 1_764_400_000)
    XCTAssertTrue(body.contains("c.&plan=pro&podcast.&title=Swift%20%26%20Sundell&.podcast&.c"), body)
    let event = try XCTUnwrap(hit(body)?.events.first)
    XCTAssertEqual(event.kind, .screen)
    XCTAssertEqual(
      event.call,
      CallDescription(
        method: "trackState", name: "podcasts",
        parameters: ["plan": "pro", "podcast.title": "Swift & Sundell"]))
    XCTAssertNil(annotations(event)["sdk_context_data"])
  }

  func testAGETHitIsReadFromItsQuery() throws {
    let request = ReceivedRequest(
      method: .GET, path: AdobeWireFixtures.hitPath, query: FormDecoding.pairs(AdobeWireFixtures.actionHit),
      headers: [:], body: [], peerHost: "127.0.0.1")
    let reply = AdobeAnalyticsHit().handle(request)
    XCTAssertEqual(reply.events.map(\.name), ["testAction"])
  }

  /// What does not read as the SDK writes it is kept and reported with its place; a hit nested
  /// past the limit or without a field is refused, each request on its own.
  func testOddHitsAreKeptWithTheirProblemsAndBadOnesRefused() throws {
    let odd = "ndh=1&pageName=home&zz9=1&c.&k=v&.x&k=w&a.&.c&mid=m"
    let event = try XCTUnwrap(hit(odd)?.events.first)
    XCTAssertEqual(event.name, "home")
    XCTAssertEqual(event.properties, ["k": "w"], "the repeat's value, as Adobe keeps")
    let problems = try XCTUnwrap(annotations(event)["problems"].flatMap(Payload.array)).compactMap(
      Payload.text)
    XCTAssertEqual(
      problems,
      [
        "field 6 (.x): closes a level that is not open (innermost open: c)",
        "field 7 (k): context data k repeated",
        "field 9 (.c): closes a level that is not open (innermost open: a)",
        "end of hit: level c.a is not closed",
      ])
    XCTAssertEqual(Payload.object(event.annotations["unread"]), ["zz9": "1"], "a variable not known")
    XCTAssertNil(annotations(event)["variables"].flatMap(Payload.objectOrNil)?["zz9"])

    let deep = "ndh=1&c." + String(repeating: "&a.", count: 100) + "&k=v"
    let refused = try XCTUnwrap(hit(deep))
    XCTAssertEqual(refused.status, .badRequest)
    XCTAssertEqual(refused.rejection, .invalidPayload)
    XCTAssertTrue(refused.body.contains("deeper than 64 levels"), refused.body)
    XCTAssertEqual(hit("")?.status, .badRequest)

    let strays = "ndh=1&pageName=p" + String(repeating: "&.x", count: 100_000)
    let many = try XCTUnwrap(hit(strays)?.events.first)
    let listed = try XCTUnwrap(annotations(many)["problems"].flatMap(Payload.array))
    XCTAssertEqual(listed.count, AdobeHitFields.problemLimit + 1, "50 listed, the rest counted")
    XCTAssertEqual(listed.last, "and 99950 more problems")
  }

  func testAnEdgeInteractIsOneSendEventPerEventAnsweredAsAStream() throws {
    let reply = try XCTUnwrap(
      endpointReply(
        "/ee/v1/interact", body: AdobeWireFixtures.edgeInteract,
        query: [("configId", "12345-example"), ("requestId", "r-1")]))
    XCTAssertEqual(reply.status, .ok)
    XCTAssertEqual(reply.body, "\u{0}{\"requestId\":\"r-1\",\"handle\":[]}\n")
    let event = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(reply.events.count, 1)
    XCTAssertEqual(event.call.method, "sendEvent")
    XCTAssertEqual(event.name, "sendEvent", "no eventType: the call's own name")
    XCTAssertEqual(Payload.object(event.properties["xdm"])["testString"], "xdm")
    XCTAssertEqual(Payload.object(event.properties["data"])["testDataInt"], .int(101))
    XCTAssertEqual(event.call.parameters, event.properties)
    XCTAssertEqual(event.identity.deviceID, "29068398647607325310376254630528178721")
    XCTAssertEqual(event.messageID, "0b1a7c2e-4d3f-4a8b-9c6d-1e2f3a4b5c6d")
    XCTAssertEqual(annotations(event)["config_id"], "12345-example")
    let request = try XCTUnwrap(annotations(event)["request"].flatMap(Payload.objectOrNil))
    XCTAssertEqual(request.keys, ["meta", "xdm"])
    let problems = annotations(event)["problems"].flatMap(Payload.array)?.compactMap(Payload.text)
    XCTAssertEqual(problems, ["events[0].xdm.eventType: missing, recorded as sendEvent"])
  }

  func testEdgeEventsAreNamedByTheirTypeAndCollectAnswers204() throws {
    for path in ["/ee/v1/collect", "/ee/or2/v1/collect", "/ee-pre-prd/v1/collect"] {
      let reply = try XCTUnwrap(
        endpointReply(path, body: AdobeWireFixtures.edgeTwoEvents, contentType: "text/plain"))
      XCTAssertEqual(reply.status, .noContent, path)
      XCTAssertEqual(reply.body, "")
      XCTAssertEqual(reply.events.map(\.name), ["web.webpagedetails.pageViews", "commerce.purchases"], path)
      XCTAssertEqual(reply.events.map(\.identity.userID), ["user@example.com", "user@example.com"])
      XCTAssertEqual(reply.events.map(\.identity.deviceID), ["ecid-7", "ecid-7"])
      XCTAssertEqual(reply.events.map { $0.annotations["event_index"] }, [.int(0), .int(1)])
      XCTAssertNotNil(reply.events.first?.annotations["request"])
      XCTAssertNil(reply.events.last?.annotations["request"], "the request's fields are written once")
    }
    // `/ee/v3/interact` is an Edge path Tagscope refuses with its path (``AdobeEdgePathTests``).
    for path in ["/ee/or2/x/v1/interact", "/ee//v1/interact", "/ef/v1/interact"] {
      guard case .notFound = EndpointRouter.route(method: .POST, path: path) else {
        return XCTFail("\(path) is routed")
      }
    }
  }

  func testBadEdgeRequestsAreRefusedOneByOneAndUnknownKeysKept() throws {
    let cases: [(body: String, contentType: String, status: HTTPResponseStatus, reason: RejectionReason)] = [
      ("{", "application/json", .badRequest, .malformedJSON),
      (#"{"events":[]}"#, "application/json", .badRequest, .invalidPayload),
      (#"{"events":{}}"#, "application/json", .badRequest, .invalidPayload),
      (#"{"events":[{"data":{}}]}"#, "application/json", .badRequest, .invalidPayload),
      (#"{"events":[{"xdm":{}}]}"#, "application/xml", .unsupportedMediaType, .wrongContentType),
    ]
    for item in cases {
      let reply = try XCTUnwrap(
        endpointReply("/ee/v1/interact", body: item.body, contentType: item.contentType))
      XCTAssertEqual(reply.status, item.status, item.body)
      XCTAssertEqual(reply.rejection, item.reason, item.body)
      XCTAssertEqual(reply.events.count, 0)
      XCTAssertTrue(reply.body.contains("\"detail\""), reply.body)
    }
    let odd = #"{"events":[{"xdm":{"eventType":"e"},"extra":1}],"surprise":true}"#
    let event = try XCTUnwrap(endpointReply("/ee/v1/interact", body: odd)?.events.first)
    XCTAssertNil(event.properties["extra"], "not in the call")
    XCTAssertEqual(
      Payload.object(event.annotations["unread"]), ["events[0].extra": .int(1), "surprise": true],
      "kept with their places")
    XCTAssertNil(annotations(event)["problems"])
  }

  /// Through a real `listen`: each request's answer as Adobe gives it, each call one record of
  /// provider `adobe`, judged as the hub's calls are.
  func testListenRecordsAdobeRequestsOverTCP() async throws {
    let (server, collector) = try await startServer()
    let gif = try httpRequest(
      port: server.port, path: AdobeWireFixtures.hitPath, contentType: "application/x-www-form-urlencoded",
      body: AdobeWireFixtures.actionHit)
    XCTAssertEqual(gif?.status, 200)
    XCTAssertTrue(gif?.body.hasPrefix("GIF89a") ?? false)
    let stream = try httpRequest(
      port: server.port, path: "/ee/v1/interact?configId=c-1&requestId=r-9",
      body: AdobeWireFixtures.edgeTwoEvents)
    XCTAssertEqual(stream?.status, 200)
    XCTAssertEqual(stream?.body, "\u{0}{\"requestId\":\"r-9\",\"handle\":[]}\n")
    let bad = try httpRequest(port: server.port, path: "/ee/v1/interact", body: "{nope")
    XCTAssertEqual(bad?.status, 400)
    let records = collector.waitForRecords(3)
    XCTAssertEqual(records.map(\.name), ["testAction", "web.webpagedetails.pageViews", "commerce.purchases"])
    XCTAssertEqual(Set(records.compactMap { $0.outputs.first?.provider }), ["adobe"])
    XCTAssertEqual(records.first?.outputs.first?.calls.first?.method, "trackAction")
    XCTAssertEqual(server.statistics.rejected[.malformedJSON], 1)
    try await server.shutdown()
  }
}
