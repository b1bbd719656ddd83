import AnalyticsHub
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 31: each vendor's documented limit on one request and one event (the registry's `Vendors.limits`), met
/// exactly and passed by one — by one byte, one event. At the limit the request is taken whole;
/// one past, it gets the vendor's status and error shape, records nothing and names its reason.
/// GA4's 25 events are ``AmplificationTests``'s; the 4 MiB of one event ``EventSizeLimitTests``'s.
final class VendorLimitsTests: XCTestCase {
  /// `template` with `PAD` replaced by as many `x` as make it `bytes` long.
  private func sized(_ template: String, bytes: Int) -> String {
    let padding = bytes - (template.utf8.count - 3)
    precondition(padding >= 0, "\(template) is longer than \(bytes) bytes")
    return template.replacingOccurrences(of: "PAD", with: String(repeating: "x", count: padding))
  }

  private func answer(
    _ path: String, _ body: String, authorization: String? = nil, lazily: Bool = false
  ) -> SDKReply {
    endpointReply(path, body: body, authorization: authorization, lazily: lazily)
      ?? SDKReply(status: .notFound, body: "")
  }

  private func field(_ reply: SDKReply, _ key: String) -> PropertyValue? {
    Payload.object(try? JSONParser.parse(Array(reply.body.utf8)))[key]
  }

  func testSegmentBatchEventAt32KBIsTakenAndOneByteMoreIsRefused() {
    let event = #"{"type":"track","userId":"u","event":"E","properties":{"p":"PAD"}}"#
    for (bytes, taken) in [(SegmentEndpoint.messageLimit, true), (SegmentEndpoint.messageLimit + 1, false)] {
      let reply = answer("/v1/batch", #"{"batch":["# + sized(event, bytes: bytes) + "]}")
      XCTAssertEqual(reply.status, taken ? .ok : .badRequest, "\(bytes): \(reply.body)")
      XCTAssertEqual(reply.eventCount, taken ? 1 : 0)
      XCTAssertEqual(reply.rejection, taken ? nil : .bodyTooLarge)
      if !taken { XCTAssertEqual(field(reply, "code"), "request_too_large") }
    }
  }

  func testSegmentBatchOf2500EventsIsTakenAndOneMoreIsAnsweredOKAndDropped() {
    let event = #"{"type":"track","userId":"u","event":"E"}"#
    for count in [SegmentEndpoint.batchEvents, SegmentEndpoint.batchEvents + 1] {
      let body = #"{"batch":["# + Array(repeating: event, count: count).joined(separator: ",") + "]}"
      XCTAssertLessThan(body.utf8.count, SegmentEndpoint.batchLimit)
      let reply = answer("/v1/batch", body)
      XCTAssertEqual(reply.status, .ok, "Segment answers 200 either way")
      XCTAssertEqual(reply.body, #"{"success":true}"#)
      XCTAssertEqual(reply.eventCount, count == SegmentEndpoint.batchEvents ? count : 0)
      XCTAssertEqual(reply.rejection, count == SegmentEndpoint.batchEvents ? nil : .tooManyEvents)
    }
  }

  func testSegmentCallAndBatchBodiesAtTheirLimitsAreTakenAndOneByteMoreIsRefused() async throws {
    let (server, collector) = try await startServer()
    let call = #"{"userId":"u","event":"E","properties":{"p":"PAD"}}"#
    let event = #"{"type":"track","userId":"u","event":"E","properties":{"p":"PAD"}}"#
    // A batch body of 500 KB: 16 events of 31 KB, a 17th filling it.
    func batch(_ bytes: Int) -> String {
      let full = sized(event, bytes: 31 * 1024)
      let head = #"{"batch":["# + Array(repeating: full, count: 16).joined(separator: ",") + ","
      return head + sized(event, bytes: bytes - head.utf8.count - 2) + "]}"
    }
    var statuses: [Int?] = []
    for bytes in [SegmentEndpoint.messageLimit, SegmentEndpoint.messageLimit + 1] {
      statuses.append(
        try httpRequest(port: server.port, path: "/v1/track", body: sized(call, bytes: bytes))?.status)
    }
    for bytes in [SegmentEndpoint.batchLimit, SegmentEndpoint.batchLimit + 1] {
      let body = batch(bytes)
      XCTAssertEqual(body.utf8.count, bytes)
      statuses.append(try httpRequest(port: server.port, path: "/v1/batch", body: body)?.status)
    }
    collector.waitForRecords(18)
    try await server.shutdown()
    XCTAssertEqual(statuses, [200, 400, 200, 400])
    XCTAssertEqual(collector.records.count, 18, "the call and the batch at their limits")
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 2)
  }

  /// RudderStack's SDKs post to Segment's batch paths, with RudderStack's own bounds: 4 MB a
  /// batch, and no bound on its events.
  func testRudderStackBatchOf4MBIsTakenAndOneByteMoreIsRefused() async throws {
    let (server, collector) = try await startServer()
    let event = #"{"type":"track","channel":"server","userId":"u","event":"E","properties":{"p":"PAD"}}"#
    // 127 events of 32 KB, a 128th filling the body.
    func batch(_ bytes: Int) -> String {
      let head =
        #"{"batch":["#
        + Array(repeating: sized(event, bytes: SegmentEndpoint.messageLimit), count: 127)
        .joined(separator: ",") + ","
      return head + sized(event, bytes: bytes - head.utf8.count - 2) + "]}"
    }
    var statuses: [Int?] = []
    for bytes in [SegmentEndpoint.rudderStackBatchLimit, SegmentEndpoint.rudderStackBatchLimit + 1] {
      let body = batch(bytes)
      XCTAssertEqual(body.utf8.count, bytes)
      statuses.append(try httpRequest(port: server.port, path: "/v1/batch", body: body)?.status)
    }
    collector.waitForRecords(128)
    try await server.shutdown()
    XCTAssertEqual(statuses, [200, 400])
    XCTAssertEqual(collector.records.count, 128)
    XCTAssertEqual(Set(collector.records.map { $0.outputs.first?.provider }), ["rudderstack"])
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 1)
    // Segment's 2,500 events are not RudderStack's bound.
    let tiny = #"{"type":"track","channel":"server","userId":"u","event":"E"}"#
    let many = answer(
      "/v1/batch",
      #"{"batch":["#
        + Array(repeating: tiny, count: SegmentEndpoint.batchEvents + 1).joined(separator: ",")
        + "]}")
    XCTAssertEqual(many.eventCount, SegmentEndpoint.batchEvents + 1)
    XCTAssertNil(many.rejection)
  }

  func testAmplitude2000EventsAreTakenAndOneMoreIsRefused() {
    let event = #"{"event_type":"E","user_id":"user-1"}"#
    for count in [AmplitudeEndpoint.maximumEvents, AmplitudeEndpoint.maximumEvents + 1] {
      let body =
        #"{"api_key":"k","events":["# + Array(repeating: event, count: count).joined(separator: ",") + "]}"
      let reply = answer("/2/httpapi", body)
      let taken = count == AmplitudeEndpoint.maximumEvents
      XCTAssertEqual(reply.status, taken ? .ok : .payloadTooLarge)
      XCTAssertEqual(reply.eventCount, taken ? count : 0)
      XCTAssertEqual(reply.rejection, taken ? nil : .tooManyEvents)
      XCTAssertEqual(field(reply, "code"), .int(taken ? 200 : 413))
    }
  }

  func testMixpanelEventOf1MBIsTakenAndOneByteMoreIsRefusedWithFailedRecords() {
    let event = #"{"event":"E","properties":{"token":"t","distinct_id":"d","$insert_id":"i-1","p":"PAD"}}"#
    for bytes in [MixpanelEndpoint.eventBytes, MixpanelEndpoint.eventBytes + 1] {
      let reply = answer("/import", "[" + sized(event, bytes: bytes) + "]")
      let taken = bytes == MixpanelEndpoint.eventBytes
      XCTAssertEqual(reply.status, taken ? .ok : .badRequest, reply.body)
      XCTAssertEqual(reply.eventCount, taken ? 1 : 0)
      XCTAssertEqual(reply.rejection, taken ? nil : .bodyTooLarge)
      if !taken {
        let failed = Payload.object(Payload.array(field(reply, "failed_records"))?.first)
        XCTAssertEqual(failed["index"], 0)
        XCTAssertEqual(failed["insert_id"], "i-1")
        XCTAssertEqual(field(reply, "num_records_imported"), 0)
      }
    }
    // A profile update on `/engage` is held to the same bound, answered in `error`.
    let update = #"{"$token":"t","$distinct_id":"d","$set":{"p":"PAD"}}"#
    let over = answer("/engage", "[" + sized(update, bytes: MixpanelEndpoint.eventBytes + 1) + "]")
    XCTAssertEqual(over.status, .badRequest)
    XCTAssertEqual(over.rejection, .bodyTooLarge)
    XCTAssertEqual(over.body, "0", "Mixpanel's answer without verbose=1")
    let at = answer("/engage", "[" + sized(update, bytes: MixpanelEndpoint.eventBytes) + "]")
    XCTAssertEqual(at.eventCount, 1)
  }

  /// Mixpanel's `/import` imports the events that pass and lists the others in `failed_records`
  /// (docs.mixpanel.com/troubleshooting/errors/400-bad-request: "a 400 is a partial success"):
  /// `listen` records those it imported. `/track` refuses the request whole.
  func testMixpanelImportRecordsTheEventsThatPassAndListsTheOthersInFailedRecords() {
    let big = #"{"event":"Big","properties":{"distinct_id":"d","$insert_id":"i-big","p":"PAD"}}"#
    let messages = [
      #"{"event":"First","properties":{"distinct_id":"d","$insert_id":"i-1","time":1764000000}}"#,
      sized(big, bytes: MixpanelEndpoint.eventBytes + 1),
      #"{"properties":{"distinct_id":"d","$insert_id":"i-nameless"}}"#,
      "42",
      #"{"event":"Last","properties":{"distinct_id":"d","$insert_id":"i-4"}}"#,
    ]
    let reply = answer("/import", "[" + messages.joined(separator: ",") + "]")
    XCTAssertEqual(reply.status, .badRequest, reply.body.prefix(300).description)
    XCTAssertEqual(reply.events.map(\.name), ["First", "Last"], "the events that passed are recorded")
    XCTAssertEqual(reply.rejection, .bodyTooLarge, "counted under the first failure's reason")
    XCTAssertEqual(field(reply, "num_records_imported"), 2)
    XCTAssertEqual(field(reply, "error"), "some data points in the request failed validation")
    let failed = Payload.array(field(reply, "failed_records"))?.map { Payload.object($0) } ?? []
    XCTAssertEqual(failed.map { $0["index"] }, [1, 2, 3])
    XCTAssertEqual(failed.map { $0["insert_id"] }, ["i-big", "i-nameless", .null])
    XCTAssertEqual(failed.map { $0["field"] }, ["", "event", ""])

    let whole = answer("/track", "[" + messages.joined(separator: ",") + "]")
    XCTAssertEqual(whole.status, .badRequest)
    XCTAssertEqual(whole.eventCount, 0, "/track refuses the request whole")
  }

  func testMixpanel2000MessagesAreTakenAndOneMoreIsRefused() {
    let event = #"{"event":"E","properties":{"token":"t","distinct_id":"d"}}"#
    for count in [MixpanelEndpoint.maximumEvents, MixpanelEndpoint.maximumEvents + 1] {
      let reply = answer("/import", "[" + Array(repeating: event, count: count).joined(separator: ",") + "]")
      let taken = count == MixpanelEndpoint.maximumEvents
      XCTAssertEqual(reply.status, taken ? .ok : .badRequest)
      XCTAssertEqual(reply.eventCount, taken ? count : 0)
      XCTAssertEqual(reply.rejection, taken ? nil : .tooManyEvents)
    }
  }

  func testPostHogEventOf1MBIsTakenAndOneByteMoreIsRefusedWith413() {
    let event = #"{"event":"E","distinct_id":"d","properties":{"p":"PAD"}}"#
    let small = #"{"event":"s","distinct_id":"d"}"#
    for bytes in [PostHogEndpoint.eventBytes, PostHogEndpoint.eventBytes + 1] {
      let taken = bytes == PostHogEndpoint.eventBytes
      // A batch decoded at once, and one left in its body (more than `offloadEvents` events).
      for count in [1, BulkDelivery.offloadEvents + 1] {
        let events = Array(repeating: small, count: count - 1) + [sized(event, bytes: bytes)]
        let body = #"{"api_key":"k","batch":["# + events.joined(separator: ",") + "]}"
        let reply = answer("/batch", body, lazily: true)
        XCTAssertEqual(reply.status, taken ? .ok : .payloadTooLarge, "\(count) events: \(reply.body)")
        XCTAssertEqual(reply.eventCount, taken ? count : 0)
        XCTAssertEqual(reply.rejection, taken ? nil : .bodyTooLarge)
        XCTAssertEqual(reply.batch != nil, taken && count > 1, "\(count) events")
        if !taken { XCTAssertEqual(field(reply, "code"), "event_too_big") }
      }
    }
  }
}
