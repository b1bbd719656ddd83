import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// What the fuzzing passes over the SDK payload decoders found (the passes themselves are
/// `EndpointFuzzTests`), each kept as a regression case.
final class SDKFuzzTests: XCTestCase {
  private struct Target {
    var path: String
    var query: [(name: String, value: String)] = []
    var contentType = "application/json"
    /// `Authorization`, for the APIs that refuse a request without it (mParticle's basic auth).
    var authorization: String?
    var payloads: [String]
  }

  private let amplitude = Target(
    path: "/2/httpapi",
    payloads: [
      #"{"api_key":"k","events":[{"event_type":"Play Podcast","user_id":"u1","device_id":"d1","time":1795255204210,"event_properties":{"title":"S","duration":1830},"user_properties":{"$set":{"plan":"pro"}},"insert_id":"i1"}],"options":{"min_id_length":1}}"#
    ])
  private let mixpanel = Target(
    path: "/track",
    payloads: [
      #"[{"event":"Play","properties":{"token":"t","distinct_id":"d","time":1795255204,"$insert_id":"i","title":"S"}}]"#,
      #"{"event":"Signup","properties":{"token":"t","distinct_id":"d"}}"#,
    ])
  private let snowplow = Target(
    path: "/com.snowplowanalytics.snowplow/tp2",
    payloads: [
      #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":[{"e":"se","se_ca":"shop","se_ac":"add","se_va":"2.5","p":"mob","tv":"py-1.0.0","eid":"0b7d3e2a-4a7e-4d59-9e0d-1b6a0d9f4d10","dtm":"1795255204210","aid":"app","uid":"u","cx":"eyJzY2hlbWEiOiJpZ2x1OmNvbS5zbm93cGxvd2FuYWx5dGljcy5zbm93cGxvdy9jb250ZXh0cy9qc29uc2NoZW1hLzEtMC0wIiwiZGF0YSI6W119"},{"e":"ue","ue_pr":"{\"schema\":\"iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0\",\"data\":{\"schema\":\"iglu:com.acme/play/jsonschema/1-0-0\",\"data\":{\"title\":\"S\"}}}","p":"web","tv":"js-3"}]}"#
    ])
  private let ga4 = Target(
    path: "/mp/collect", query: [("measurement_id", "G-TEST"), ("api_secret", "s")],
    payloads: [
      #"{"client_id":"c.1","user_id":"u","timestamp_micros":1795255204210000,"user_properties":{"tier":{"value":"gold"}},"events":[{"name":"play_podcast","params":{"title":"S","engagement_time_msec":100,"items":[{"item_id":"i"}]}}]}"#
    ])

  /// mParticle's Events API, bodies as mparticle-python-sdk sends them (basic auth `k:s`).
  private let mParticle = Target(
    path: "/v2/events", authorization: "Basic azpz", payloads: EndpointFuzzCorpus.mParticle)

  /// Found by the fuzzer: a client time of 1e300 trapped converting to milliseconds (a crash of
  /// `listen`). Such times now fall back to the time the event was received.
  func testAbsurdClientTimesFallBackToTheReceiveTime() {
    let bodies: [(Target, String)] = [
      (amplitude, #"{"api_key":"k","events":[{"event_type":"E","user_id":"user-1","time":1e300}]}"#),
      (ga4, #"{"client_id":"c","timestamp_micros":-1e308,"events":[{"name":"e"}]}"#),
      (mixpanel, #"[{"event":"E","properties":{"token":"t","distinct_id":"d","time":1e300}}]"#),
      (
        mParticle,
        #"{"events":[{"data":{"event_name":"E","timestamp_unixtime_ms":1e300},"event_type":"custom_event"}]}"#
      ),
      (
        snowplow,
        #"{"schema":"s","data":[{"e":"se","se_ca":"c","se_ac":"a","dtm":"1e400","p":"web","tv":"t"}]}"#
      ),
    ]
    for (target, body) in bodies {
      guard
        let reply = endpointReply(
          target.path, body: body, query: target.query, contentType: target.contentType,
          authorization: target.authorization)
      else { return }
      XCTAssertEqual(reply.events.count, 1, "\(target.path): \(reply.body)")
      XCTAssertNil(reply.events.first?.time, target.path)
    }
    XCTAssertEqual(Payload.number("2.5"), 2.5)
    for text in ["nan", "inf", "-infinity", "0x1p3", "1e400", "", " 1"] {
      XCTAssertNil(Payload.number(text), text)
    }
    XCTAssertEqual(ISO8601Timestamp.milliseconds(seconds: 1e300), ISO8601Timestamp.latest)
    XCTAssertEqual(ISO8601Timestamp.milliseconds(seconds: -.infinity), ISO8601Timestamp.earliest)
    XCTAssertEqual(ISO8601Timestamp.milliseconds(seconds: .nan), 0)
    let far = Record(seq: 1, time: Date(timeIntervalSince1970: 1e300), kind: .event, name: "e")
    XCTAssertEqual(
      try RecordLineDecoder.decodeRecord(RecordLineEncoder.line(far)).timeMilliseconds,
      ISO8601Timestamp.latest)
  }
}
