import AnalyticsHub
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// The GA4 Measurement Protocol endpoints, including the validation server's replies.
final class GA4Tests: XCTestCase {
  private let query = "?measurement_id=G-TEST&api_secret=secret"

  func testValidationServerReportsInvalidAndReservedNames() async throws {
    let (server, collector) = try await startServer()
    let body = #"""
      {"client_id":"c.1","events":[{"name":"_badEventName","params":{}},{"name":"session_start"},
      {"name":"play_podcast","params":{"podcast_title":"Swift by Sundell","firebase_x":1}}]}
      """#
    let reply = try httpRequest(port: server.port, path: "/debug/mp/collect" + query, body: body)
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 200)
    guard case .object(let object)? = try? JSONParser.parse(reply?.body ?? "") else {
      return XCTFail("not JSON: \(reply?.body ?? "")")
    }
    let messages = (Payload.array(object["validationMessages"]) ?? []).map(Payload.object)
    XCTAssertEqual(
      messages.compactMap { Payload.string($0["validationCode"]) },
      ["NAME_INVALID", "NAME_RESERVED", "NAME_RESERVED"])
    XCTAssertEqual(Payload.string(messages.first?["fieldPath"]), "events")
    XCTAssertEqual(
      Payload.string(messages.first?["description"]),
      "Event at index: [0] has invalid name [_badEventName]. Names must start with an alphabetic character.")
    XCTAssertEqual(records.map(\.name), ["_badEventName", "session_start", "play_podcast"])
    XCTAssertEqual(records[0].outputs[0].violations.map(\.rule), ["ga4.name_invalid"])
    XCTAssertEqual(records[2].outputs[0].violations.first?.consequence, "rejected")
    // The source is the device the payload names (its `client_id`), not the address.
    XCTAssertEqual(records[2].source, "ga4@c.1")
  }

  func testValidPayloadHasNoMessages() async throws {
    let (server, _) = try await startServer()
    let body = #"{"client_id":"c.1","events":[{"name":"screen_view","params":{"screen_name":"podcasts"}}]}"#
    let reply = try httpRequest(port: server.port, path: "/debug/mp/collect" + query, body: body)
    try await server.shutdown()
    XCTAssertEqual(reply?.body, #"{"validationMessages":[]}"#)
  }

  func testMissingClientIdAndSecret() async throws {
    let (server, _) = try await startServer()
    let reply = try httpRequest(
      port: server.port, path: "/debug/mp/collect?measurement_id=G-1", body: #"{"events":[{"name":"a"}]}"#)
    try await server.shutdown()
    XCTAssertTrue(reply?.body.contains(#""fieldPath":"api_secret""#) ?? false, reply?.body ?? "")
    XCTAssertTrue(
      reply?.body.contains(
        #""fieldPath":"client_id","description":"Measurement requires a client_id.","validationCode":"VALUE_REQUIRED""#
      ) ?? false)
  }

  func testCollectAnswers204AndRecordsScreensAndEvents() async throws {
    let (server, collector) = try await startServer()
    let body = #"""
      {"client_id":"c.1","user_id":"u-42","events":[{"name":"screen_view","params":{"screen_name":"podcasts"}},
      {"name":"play_podcast","params":{"podcast_duration":1830}}]}
      """#
    let reply = try httpRequest(port: server.port, path: "/mp/collect" + query, body: body)
    let garbage = try httpRequest(port: server.port, path: "/mp/collect" + query, body: "{{{")
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 204)
    XCTAssertEqual(garbage?.status, 204)
    XCTAssertEqual(records.map(\.kind), [.screen, .event])
    XCTAssertEqual(records.map(\.name), ["podcasts", "play_podcast"])
    XCTAssertEqual(
      records[1].outputs[0].calls[0],
      CallDescription(method: "logEvent", name: "play_podcast", parameters: ["podcast_duration": 1830]))
    XCTAssertEqual(records[1].context.session?.user, "u-42")
    XCTAssertEqual(server.statistics.rejected[.malformedJSON], 1)
  }

  func testBodyOver130kBGets413() async throws {
    let (server, _) = try await startServer()
    let blob = String(repeating: "z", count: 131_000)
    let reply = try httpRequest(
      port: server.port, path: "/mp/collect" + query,
      body: #"{"client_id":"c","events":[{"name":"a","params":{"b":"\#(blob)"}}]}"#)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 413)
  }
}
