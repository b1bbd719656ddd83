import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeServer

/// A time an SDK sends that does not read — not a number, milliseconds where seconds are meant —
/// is recorded at the receive time with a `<provider>.sent-time` violation naming the field, on
/// every decoder that reads one (each took it as no time, without a word); one that reads is the
/// record's time; one absent is neither.
final class SentTimeTests: XCTestCase {
  /// A decoder's record of a message whose time field holds `time` (JSON text, or a query value).
  private struct Decoder {
    let name: String
    let rule: String
    /// What the time is sent as when it reads, and the seconds since 1970 it stands for.
    let good: (sent: String, seconds: Double)
    /// What it is sent as when it does not read.
    let bad: [String]
    let field: String
    let send: (String) -> [IngestedEvent]?
  }

  private static func json(_ path: String, query: [(name: String, value: String)] = [], auth: String? = nil)
    -> (String) -> [IngestedEvent]?
  {
    { body in endpointReply(path, body: body, query: query, authorization: auth)?.events }
  }

  private let decoders: [Decoder] = [
    Decoder(
      name: "amplitude", rule: "amplitude.sent-time", good: ("1700000000000", 1_700_000_000),
      bad: ["\"soon\"", "1e20"],
      field: "time"
    ) { time in
      json("/2/httpapi")(
        #"{"api_key":"k","options":{"min_id_length":1},"events":[{"event_type":"E","user_id":"u","time":\#(time)}]}"#
      )
    },
    Decoder(
      name: "mparticle", rule: "mparticle.sent-time", good: ("1700000000000", 1_700_000_000),
      bad: ["\"soon\""],
      field: "data.timestamp_unixtime_ms"
    ) { time in
      json("/v2/events", auth: "Basic a2V5OnNlY3JldA==")(
        #"{"events":[{"event_type":"custom_event","data":{"event_name":"E","timestamp_unixtime_ms":\#(time)}}]}"#
      )
    },
    Decoder(
      name: "mixpanel track", rule: "mixpanel.sent-time", good: ("1700000000", 1_700_000_000),
      bad: ["\"soon\""],
      field: "properties.time"
    ) { time in
      json("/track")(#"[{"event":"A","properties":{"token":"t","distinct_id":"d","time":\#(time)}}]"#)
    },
    Decoder(
      name: "mixpanel engage", rule: "mixpanel.sent-time", good: ("1700000000000", 1_700_000_000),
      bad: ["[1]"],
      field: "$time"
    ) { time in
      json("/engage")(#"[{"$token":"t","$distinct_id":"d","$time":\#(time),"$set":{"plan":"pro"}}]"#)
    },
    Decoder(
      name: "segment", rule: "segment.sent-time", good: ("\"2023-11-14T22:13:20.000Z\"", 1_700_000_000),
      bad: ["\"yesterday\"", "1700000000"], field: "timestamp"
    ) { time in
      json("/v1/track", auth: "Basic a2V5Og==")(#"{"event":"E","userId":"u","timestamp":\#(time)}"#)
    },
    Decoder(
      name: "posthog", rule: "posthog.sent-time", good: ("\"2023-11-14T22:13:20Z\"", 1_700_000_000),
      bad: ["\"yesterday\""], field: "timestamp"
    ) { time in
      json("/capture")(#"{"api_key":"key","event":"E","distinct_id":"d","timestamp":\#(time)}"#)
    },
    Decoder(
      name: "snowplow", rule: "snowplow.sent-time", good: ("\"1700000000000\"", 1_700_000_000),
      bad: ["\"later\""],
      field: "dtm"
    ) { time in
      json("/com.snowplowanalytics.snowplow/tp2")(
        #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","#
          + #""data":[{"e":"pv","url":"https://x","p":"web","tv":"js-3","dtm":\#(time)}]}"#)
    },
    Decoder(
      name: "ga4", rule: "ga4.sent-time", good: ("\"1700000000000000\"", 1_700_000_000),
      bad: ["\"x\"", "true"],
      field: "request.timestamp_micros"
    ) { time in
      json("/mp/collect", query: [("measurement_id", "G-1"), ("api_secret", "s")])(
        #"{"client_id":"c","timestamp_micros":\#(time),"events":[{"name":"a","params":{}}]}"#)
    },
    // The Braze SDKs send seconds: milliseconds are a time in the year 55,000.
    Decoder(
      name: "braze", rule: "braze.sent-time", good: ("1700000000", 1_700_000_000),
      bad: ["1700000000000", "\"x\""],
      field: "events[0].time"
    ) { time in
      json("/api/v3/data")(#"{"api_key":"k","events":[{"name":"ce","data":{"n":"E"},"time":\#(time)}]}"#)
    },
    Decoder(
      name: "braze content request", rule: "braze.sent-time", good: ("1700000000", 1_700_000_000),
      bad: ["1700000000000"], field: "time"
    ) { time in
      json("/api/v3/feature_flags/sync")(#"{"api_key":"k","device_id":"d","time":\#(time)}"#)
    },
    Decoder(
      name: "piano", rule: "piano.sent-time", good: ("1700000000", 1_700_000_000), bad: ["1700000000000"],
      field: "events[0].data.device_timestamp_utc"
    ) { time in
      json("/event", query: [("s", "552987"), ("idclient", "v-1")])(
        #"{"events":[{"name":"click.action","data":{"click":"b","device_timestamp_utc":\#(time)}}]}"#)
    },
    // atinternet-android-sdk `Core.java`'s `getTimeStamp`: seconds with their decimals, as text.
    Decoder(
      name: "at internet", rule: "piano.sent-time", good: ("1700000000.5", 1_700_000_000.5),
      bad: ["soon", ""],
      field: "ts"
    ) { time in
      endpointReply("/hit.xiti", body: "", query: [("s", "552987"), ("p", "home"), ("ts", time)])?.events
    },
  ]

  func testATimeThatDoesNotReadIsReportedOnEveryDecoder() throws {
    for decoder in decoders {
      let good = try XCTUnwrap(decoder.send(decoder.good.sent)?.first, decoder.name)
      XCTAssertEqual(
        try XCTUnwrap(good.time, decoder.name).timeIntervalSince1970, decoder.good.seconds, accuracy: 0.001,
        decoder.name)
      XCTAssertFalse(good.violations.contains { $0.rule == decoder.rule }, decoder.name)
      for bad in decoder.bad {
        let record = try XCTUnwrap(decoder.send(bad)?.first, "\(decoder.name) \(bad)")
        XCTAssertNil(record.time, "\(decoder.name) \(bad)")
        let violation = try XCTUnwrap(
          record.violations.first { $0.rule == decoder.rule }, "\(decoder.name) \(bad): \(record.violations)")
        XCTAssertTrue(
          violation.message.hasPrefix("\(decoder.field) = "), "\(decoder.name): \(violation.message)")
        XCTAssertEqual(violation.consequence, .degraded)
      }
    }
  }

  func testNoTimeOrANullOneIsNoProblem() throws {
    let records = try XCTUnwrap(
      endpointReply(
        "/api/v3/data", body: #"{"api_key":"k","events":[{"name":"ce","data":{"n":"E"},"time":null}]}"#)?
        .events)
    XCTAssertNil(records.first?.time)
    XCTAssertEqual(records.flatMap(\.violations).map(\.rule), [])
    let hit = try XCTUnwrap(
      endpointReply("/hit.xiti", body: "", query: [("s", "552987"), ("p", "home")])?.events)
    XCTAssertNil(hit.first?.time)
    XCTAssertEqual(hit.flatMap(\.violations).map(\.rule), [])
  }

  /// An AT Internet hit stored offline and sent later carries the time it was made as `olt`: the
  /// record's time, not the `ts` of its sending; an events hit's records take it too.
  func testAnOfflineATInternetHitIsRecordedAtItsOwnTime() throws {
    let hit = try XCTUnwrap(
      endpointReply(
        "/hit.xiti", body: "",
        query: [("s", "552987"), ("p", "home"), ("ts", "1700000900.0"), ("olt", "1700000000.25")]
      )?.events.first)
    XCTAssertEqual(try XCTUnwrap(hit.time).timeIntervalSince1970, 1_700_000_000.25, accuracy: 0.001)
    let events = #"[{"name":"click.action","data":{"click":"b"}}]"#
    let records = try XCTUnwrap(
      endpointReply(
        "/hit.xiti", body: "",
        query: [("s", "552987"), ("col", "2"), ("events", events), ("olt", "1700000000.25")]
      )?.events)
    XCTAssertEqual(records.count, 1)
    XCTAssertEqual(try XCTUnwrap(records[0].time).timeIntervalSince1970, 1_700_000_000.25, accuracy: 0.001)
  }

  /// A Firebase upload's event or user property whose time is past what a recording holds.
  func testAFirebaseUploadsTimeThatDoesNotReadIsReported() throws {
    var event = Tagscope_Firebase_Event()
    event.name = "level_up"
    event.timestampMillis = .max
    var property = Tagscope_Firebase_UserProperty()
    property.name = "tier"
    property.stringValue = "gold"
    property.setTimestampMillis = 1_700_000_000_000
    var bundle = Tagscope_Firebase_Bundle()
    bundle.appInstanceID = "app-instance-1"
    bundle.event = [event]
    bundle.userProperty = [property]
    var batch = Tagscope_Firebase_Batch()
    batch.bundle = [bundle]
    let records = try FirebaseUploadEndpoint.decode(try batch.serializedBytes()).get()
    XCTAssertEqual(records.map(\.name), ["level_up", "tier"])
    XCTAssertNil(records[0].time)
    XCTAssertEqual(records[0].violations.map(\.rule), ["firebase.sent-time"])
    XCTAssertTrue(records[0].violations[0].message.hasPrefix("timestamp_millis = 9223372036854775807 is not"))
    XCTAssertEqual(try XCTUnwrap(records[1].time).timeIntervalSince1970, 1_700_000_000, accuracy: 0.001)
    XCTAssertEqual(records[1].violations, [])
  }
}
