import AnalyticsHub
import Foundation
import NIOCore
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// ``RecordedMessages`` finds, in each record a recording holds, the id its endpoint took as the
/// message id when `listen` received it: what makes an SDK's retry after a restart match.
final class RecordedMessagesTests: XCTestCase {
  /// One request per SDK, each message with the id its SDK stamps (Segment's `messageId`,
  /// PostHog's `uuid`, Amplitude's `insert_id`, Mixpanel's `$insert_id`, Snowplow's `eid`,
  /// mParticle's Events API `source_message_id` and its mobile SDKs' `id`); GA4's hit has none.
  private static let requests: [(path: String, body: String, ids: [String?])] = [
    (
      "/v1/batch",
      #"{"writeKey":"k","batch":[{"type":"track","userId":"u","event":"Buy","messageId":"seg-1"}]}"#,
      ["seg-1"]
    ),
    ("/v1/track", #"{"writeKey":"k","userId":"u","event":"Buy","messageId":"seg-2"}"#, ["seg-2"]),
    ("/batch/", #"{"api_key":"phc","batch":[{"event":"Buy","distinct_id":"u","uuid":"ph-1"}]}"#, ["ph-1"]),
    (
      "/2/httpapi",
      #"{"api_key":"k","events":[{"event_type":"Buy","user_id":"user-42","insert_id":"amp-1"}]}"#,
      ["amp-1"]
    ),
    (
      "/track",
      #"[{"event":"Buy","properties":{"token":"t","distinct_id":"u","$insert_id":"mx-1","time":1}}]"#,
      ["mx-1"]
    ),
    (
      "/com.snowplowanalytics.snowplow/tp2",
      #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","#
        + #""data":[{"e":"se","se_ca":"c","se_ac":"Buy","eid":"sp-1","aid":"app","p":"srv","stm":"1"}]}"#,
      ["sp-1"]
    ),
    (
      "/v2/events",
      #"{"events":[{"data":{"event_name":"Buy","custom_event_type":"other","source_message_id":"mp-1"},"#
        + #""event_type":"custom_event"}],"environment":"development"}"#, ["mp-1"]
    ),
    (
      "/v2/us1-key/events",
      #"{"dt":"h","id":"b-1","mpid":1,"msgs":[{"dt":"e","id":"mpn-1","ct":1,"n":"Buy","et":"Other"}]}"#,
      ["mpn-1"]
    ),
    (
      "/mp/collect?measurement_id=G-1&api_secret=s",
      #"{"client_id":"c.1","events":[{"name":"level_up","params":{"level":2}}]}"#, [nil]
    ),
  ]

  private static func events(_ path: String, _ body: String) throws -> [IngestedEvent] {
    let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
    let query = (parts.count > 1 ? parts[1] : "").split(separator: "&").map { pair in
      let field = pair.split(separator: "=", maxSplits: 1).map(String.init)
      return (name: field[0], value: field.count > 1 ? field[1] : "")
    }
    guard
      let reply = endpointReply(
        parts[0], body: body, query: query,
        authorization: "Basic " + Data("mp-key:mp-secret".utf8).base64EncodedString())
    else { return [] }
    XCTAssertNil(reply.rejection, "\(path): \(reply.body)")
    return reply.events + (reply.batch.map { $0.events(0..<$0.count) } ?? [])
  }

  func testEachSDKsRecordedMessageGivesTheIdItsEndpointTook() throws {
    var messages = RecordedMessages(lastWritten: Date())
    var expected = 0
    for (path, body, ids) in Self.requests {
      let events = try Self.events(path, body)
      XCTAssertEqual(events.map(\.messageID), ids, path)
      for event in events {
        // Through the recording's line format, as `listen` reads it back at restart.
        let line = RecordLineEncoder.line(
          RecordMaker.record(event, seq: 1, source: "s", context: RecordContext(), received: Date()))
        guard case .record(let record) = try RecordLineDecoder.decode(line) else {
          XCTFail("\(path): not a record")
          continue
        }
        let output = try XCTUnwrap(record.outputs.first)
        let found = RecordedMessages.messageIDs(
          provider: output.provider, call: try XCTUnwrap(output.calls.first), raw: try XCTUnwrap(record.raw))
        if let id = event.messageID {
          XCTAssertEqual(found, [id], path)
          expected += 1
        } else {
          XCTAssertEqual(found, [], "\(path): known by payload, not remembered across a restart")
        }
        messages.note(record)
      }
    }
    XCTAssertEqual(messages.count, expected)
  }

  func testARecordingWrittenBeforeTheWindowOrNoneNotesNothing() throws {
    let event = try XCTUnwrap(try Self.events(Self.requests[0].path, Self.requests[0].body).first)
    let record = RecordMaker.record(event, seq: 1, source: "s", context: RecordContext(), received: Date())
    var old = RecordedMessages(lastWritten: Date().addingTimeInterval(-601))
    old.note(record)
    XCTAssertEqual(old.count, 0)
    var none = RecordedMessages()
    none.note(record)
    XCTAssertEqual(none.count, 0)
    var recent = RecordedMessages(lastWritten: Date().addingTimeInterval(-60))
    recent.note(record)
    XCTAssertEqual(recent.count, 1)
  }

  /// Seeded messages match one retry each, until the file's last write plus the window.
  func testSeededMessagesMatchTheirRetriesUntilTheWindowEnds() throws {
    let event = try XCTUnwrap(try Self.events(Self.requests[0].path, Self.requests[0].body).first)
    let record = RecordMaker.record(event, seq: 1, source: "s", context: RecordContext(), received: Date())
    let date = Date()
    var messages = RecordedMessages(lastWritten: date.addingTimeInterval(-300), now: date)
    messages.note(record)
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    let memory = RetryMemory()
    memory.seed(messages, now: start, date: date)
    XCTAssertEqual(memory.admit([event, event], ledger: RetryLedger(), now: start).count, 1, "one retry")
    let late = RetryMemory()
    late.seed(messages, now: start, date: date)
    XCTAssertEqual(
      late.admit([event], ledger: RetryLedger(), now: start + .seconds(301)).count, 1,
      "past the file's last write plus the window")
  }
}
