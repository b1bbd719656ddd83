import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Issue 31: an SDK event becomes one recording line, and a line's size is work and disk per byte
/// received. A large event, its payload in one property full of what JSON escapes (quotes,
/// backslashes) and of non-ASCII text, is made into its record's line on every endpoint that
/// takes JSON: the line holds the payload twice at most (the record's properties and the call's
/// parameters), not three times (`raw` repeating the call, escaped once more).
final class RecordLineRatioTests: XCTestCase {
  /// One property's value as JSON text: `count` bytes of quotes, backslashes, letters and `é`.
  private func blob(_ count: Int) -> String {
    let unit = #"ab\"c\\d\u00e9é/"#
    return "\"" + String(repeating: unit, count: count / unit.utf8.count) + "\""
  }

  private struct Case {
    var path: String
    var query: [(name: String, value: String)] = []
    var contentType = "application/json"
    var authorization: String?
    /// The body, with `EVENT` where the event goes.
    var body: String
    /// The event, with `BLOB` where the large value goes.
    var event: String
    /// The most line bytes per event byte.
    var ratio = 2.0
  }

  private var cases: [Case] {
    [
      Case(
        path: "/v1/batch", body: #"{"writeKey":"k","batch":[EVENT]}"#,
        event: #"{"type":"track","userId":"u","event":"E","properties":{"blob":BLOB}}"#),
      Case(
        path: "/v1/track", authorization: "Basic azo=", body: "EVENT",
        event: #"{"userId":"u","event":"E","properties":{"blob":BLOB}}"#),
      Case(
        path: "/2/httpapi", body: #"{"api_key":"k","events":[EVENT]}"#,
        event: #"{"event_type":"E","user_id":"user-1","event_properties":{"blob":BLOB}}"#),
      Case(
        path: "/batch", body: #"{"api_key":"k","events":[EVENT]}"#,
        event: #"{"event_type":"E","user_id":"user-1","event_properties":{"blob":BLOB}}"#),
      Case(
        path: "/batch", body: #"{"api_key":"k","batch":[EVENT]}"#,
        event: #"{"event":"E","distinct_id":"d","properties":{"blob":BLOB}}"#),
      Case(
        path: "/capture", body: "EVENT",
        event: #"{"api_key":"k","event":"E","distinct_id":"d","properties":{"blob":BLOB}}"#),
      Case(
        path: "/track", body: "[EVENT]",
        event: #"{"event":"E","properties":{"token":"t","distinct_id":"d","blob":BLOB}}"#),
      Case(
        path: "/import", body: "[EVENT]",
        event: #"{"event":"E","properties":{"token":"t","distinct_id":"d","time":1,"blob":BLOB}}"#),
      Case(
        path: "/engage", body: "[EVENT]", event: #"{"$token":"t","$distinct_id":"d","$set":{"blob":BLOB}}"#),
      Case(
        path: "/v2/events", authorization: "Basic azpz",
        body: #"{"environment":"development","events":[EVENT]}"#,
        event: #"{"event_type":"custom_event","data":{"event_name":"E","custom_attributes":{"blob":BLOB}}}"#),
      // Braze: the event as sent but its properties (under `message`), no `raw`.
      Case(
        path: "/api/v3/data", body: #"{"api_key":"k","device_id":"d","events":[EVENT]}"#,
        event: #"{"name":"ce","data":{"n":"E","p":{"blob":BLOB}},"time":1764410000,"session_id":"s"}"#),
      Case(
        path: "/event", query: [("s", "1"), ("idclient", "v")], body: #"{"events":[EVENT]}"#,
        event: #"{"name":"custom.event","data":{"blob":BLOB,"user_id":"u"}}"#),
      // Bounded by Google's 130 kB: `raw` is the request with this event only, kept for its
      // request-level fields (client id, user properties), which the call does not hold.
      Case(
        path: "/mp/collect", query: [("measurement_id", "G-1"), ("api_secret", "s")],
        body: #"{"client_id":"c","events":[EVENT]}"#, event: #"{"name":"e","params":{"blob":BLOB}}"#,
        ratio: 3),
      // Bounded by the collector's 1 MB: `raw` is the fields as sent, `ue_pr` a JSON document in a
      // string, which the call holds decoded.
      Case(
        path: "/com.snowplowanalytics.snowplow/tp2",
        body:
          #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":[EVENT]}"#,
        event: #"{"e":"ue","p":"web","tv":"t","ue_pr":UE}"#, ratio: 3),
    ]
  }

  func testALargeEventsLineHoldsItsPayloadAtMostTwice() throws {
    for item in cases {
      let value = blob(24 * 1024)
      let unstructured =
        #"{"schema":"iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0","data":{"schema":"iglu:com.acme/play/jsonschema/1-0-0","data":{"blob":"#
        + value + "}}}"
      let event = item.event.replacingOccurrences(of: "BLOB", with: value)
        .replacingOccurrences(of: "UE", with: JSONText.quoted(unstructured))
      let body = item.body.replacingOccurrences(of: "EVENT", with: event)
      let line = try XCTUnwrap(self.line(item, body: body), item.path)
      let ratio = Double(line.utf8.count) / Double(event.utf8.count)
      XCTAssertLessThanOrEqual(
        ratio, item.ratio, "\(item.path): \(line.utf8.count) line bytes per \(event.utf8.count)")
      // The line reads back, the value whole.
      let record = try RecordLineDecoder.decodeRecord(line)
      XCTAssertEqual(record.properties["blob"], try JSONParser.parse(Array(value.utf8)), item.path)
    }
  }

  /// An event made large by its name holds it three times: the record's name, the call's name
  /// and the call's parameters (the field the SDK sent it in).
  func testAnEventLargeByItsNameHoldsItAtMostThreeTimes() throws {
    let name = blob(24 * 1024)
    let cases = [
      Case(
        path: "/v1/batch", body: #"{"writeKey":"k","batch":[EVENT]}"#,
        event: #"{"type":"track","userId":"u","event":BLOB}"#),
      Case(
        path: "/2/httpapi", body: #"{"api_key":"k","events":[EVENT]}"#,
        event: #"{"event_type":BLOB,"user_id":"user-1"}"#),
      Case(path: "/capture", body: "EVENT", event: #"{"api_key":"k","event":BLOB,"distinct_id":"d"}"#),
      Case(
        path: "/import", body: "[EVENT]",
        event: #"{"event":BLOB,"properties":{"token":"t","distinct_id":"d","time":1}}"#),
    ]
    for item in cases {
      let event = item.event.replacingOccurrences(of: "BLOB", with: name)
      let line = try XCTUnwrap(
        self.line(item, body: item.body.replacingOccurrences(of: "EVENT", with: event)))
      XCTAssertLessThanOrEqual(
        Double(line.utf8.count) / Double(event.utf8.count), 3,
        "\(item.path): \(line.utf8.count) per \(event.utf8.count)")
      XCTAssertEqual(
        .string(try RecordLineDecoder.decodeRecord(line).name), try JSONParser.parse(Array(name.utf8)))
    }
  }

  /// The record's line of the one event `body` carries on `item`'s endpoint.
  private func line(_ item: Case, body: String) -> String? {
    guard
      let reply = endpointReply(
        item.path, body: body, query: item.query, contentType: item.contentType,
        authorization: item.authorization)
    else { return nil }
    guard reply.events.count == 1, let event = reply.events.first else {
      XCTFail("\(item.path): \(reply.status) \(reply.body)")
      return nil
    }
    let record = RecordMaker.record(
      event, seq: 1, source: "sdk@127.0.0.1", context: RecordContext(), received: Date())
    return RecordLineEncoder.line(record)
  }
}
