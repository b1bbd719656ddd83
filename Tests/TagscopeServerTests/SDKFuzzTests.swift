import Foundation
import NIOHTTP1
import TagscopeFuzzing
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Bounded fuzzing passes (see ``FuzzRun``) over every SDK payload decoder: a mutated request is
/// either refused (and then nothing of it is taken) or its events become records that a replay
/// reads back unchanged; JSON replies stay JSON; no request is slow.
final class SDKFuzzTests: XCTestCase {
  private struct Target {
    var path: String
    var query: [(name: String, value: String)] = []
    var contentType = "application/json"
    /// `Authorization`, for the APIs that refuse a request without it (mParticle's basic auth).
    var authorization: String?
    var payloads: [String]
  }

  private let segment = Target(
    path: "/v1/batch",
    payloads: [
      #"{"batch":[{"type":"track","event":"Order Completed","userId":"u1","messageId":"m1","timestamp":"2026-11-21T10:00:00.000Z","properties":{"total":9.99,"products":[{"id":"p1","price":4.5}]},"context":{"library":{"name":"analytics-python","version":"2.3.3"}}},{"type":"identify","anonymousId":"a1","traits":{"email":"x@y.z"}}],"writeKey":"k","sentAt":"2026-11-21T10:00:01.000Z"}"#,
      #"{"batch":[{"type":"screen","name":"Home","userId":"u","properties":{}},{"type":"group","groupId":"g","userId":"u"},{"type":"alias","previousId":"a","userId":"u"}]}"#,
    ])
  private let amplitude = Target(
    path: "/2/httpapi",
    payloads: [
      #"{"api_key":"k","events":[{"event_type":"Play Podcast","user_id":"u1","device_id":"d1","time":1795255204210,"event_properties":{"title":"S","duration":1830},"user_properties":{"$set":{"plan":"pro"}},"insert_id":"i1"}],"options":{"min_id_length":1}}"#
    ])
  private let batch = Target(
    path: "/batch",
    payloads: [
      #"{"api_key":"k","events":[{"event_type":"E","user_id":"u1","time":1795255204210}]}"#,
      #"{"api_key":"phc_k","batch":[{"event":"$pageview","distinct_id":"d","properties":{"$current_url":"https://x"},"timestamp":"2026-11-21T10:00:00Z"}]}"#,
    ])
  private let mixpanel = Target(
    path: "/track",
    payloads: [
      #"[{"event":"Play","properties":{"token":"t","distinct_id":"d","time":1795255204,"$insert_id":"i","title":"S"}}]"#,
      #"{"event":"Signup","properties":{"token":"t","distinct_id":"d"}}"#,
    ])
  private let mixpanelForm = Target(
    path: "/track", contentType: "application/x-www-form-urlencoded",
    payloads: [
      "data=W3siZXZlbnQiOiJQbGF5IiwicHJvcGVydGllcyI6eyJ0b2tlbiI6InQiLCJkaXN0aW5jdF9pZCI6ImQifX1d&verbose=1",
      "data=%5B%7B%22event%22%3A%22Play%22%2C%22properties%22%3A%7B%22token%22%3A%22t%22%7D%7D%5D",
    ])
  private let postHog = Target(
    path: "/capture",
    payloads: [
      #"{"api_key":"phc_k","event":"$identify","distinct_id":"d","properties":{"$set":{"email":"e"}},"timestamp":"2026-11-21T10:00:00Z"}"#
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
  private let ga4Validation = Target(
    path: "/debug/mp/collect", query: [("measurement_id", "G-TEST"), ("api_secret", "s")],
    payloads: [#"{"client_id":"c","events":[{"name":"_bad name","params":{"x":[1,2]}}]}"#])

  /// mParticle's Events API, bodies as mparticle-python-sdk sends them (basic auth `k:s`).
  private let mParticle = Target(
    path: "/v2/events", authorization: "Basic azpz",
    payloads: [
      #"{"events":[{"data":{"event_name":"Choose Item","custom_event_type":"other","custom_attributes":{"quantity":2,"milk":true},"timestamp_unixtime_ms":1795255204210},"event_type":"custom_event"},{"data":{"screen_name":"Home"},"event_type":"screen_view"},{"data":{"product_action":{"action":"purchase","total_amount":3.5}},"event_type":"commerce_event"}],"device_info":{"platform":"iOS","ios_idfv":"0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0001"},"application_info":{"application_name":"Freddy's"},"user_identities":{"customerid":"c1"},"mpid":600868121729048600,"mp_deviceid":"0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0001","environment":"development"}"#
    ])
  private let mParticleBulk = Target(
    path: "/v2/bulkevents", authorization: "Basic azpz",
    payloads: [
      #"[{"events":[{"data":{"event_name":"E","custom_attributes":{"a":"b"}},"event_type":"custom_event"}],"mpid":"1"},{"events":[{"data":{"session_id":7},"event_type":"session_start"}],"user_attributes":{"tier":"gold"}}]"#
    ])

  private func fuzz(_ target: Target, name: String) {
    guard case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: target.path) else {
      return XCTFail("no endpoint at \(target.path)")
    }
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: target.contentType)
    if let authorization = target.authorization { headers.add(name: "Authorization", value: authorization) }
    let corpus = target.payloads.map { Array($0.utf8) }
    let outcome = FuzzRun(name: name).run(corpus: corpus, maximumLength: 16_384, minimumInputs: 101) { body in
      let request = ReceivedRequest(
        method: .POST, path: target.path, query: target.query, headers: headers, body: body,
        peerHost: "127.0.0.1")
      let reply = endpoint.handle(request)
      if reply.rejection != nil && !reply.events.isEmpty {
        return "refused (\(reply.status.code)) yet took \(reply.events.count) events"
      }
      if reply.contentType == "application/json" && !reply.body.isEmpty
        && (try? JSONParser.parse(reply.body)) == nil
      {
        return "a JSON reply that is not JSON: \(reply.body.prefix(300))"
      }
      var devices = DeviceRegistry(limit: 8)
      for (index, event) in reply.events.enumerated() {
        let placement = devices.place(event, address: "127.0.0.1")
        let record = RecordMaker.record(
          event, seq: UInt64(index + 1), source: placement.source, context: placement.context,
          received: Date(timeIntervalSince1970: 1_795_255_204))
        let line = RecordLineEncoder.line(record)
        guard case .record(let read)? = try? RecordLineDecoder.decode(line) else {
          return "event \(index) is recorded as a line a replay cannot read: \(line.prefix(300))"
        }
        guard read == record else { return "event \(index) reads back differently: \(line.prefix(300))" }
      }
      return nil
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThan(outcome.inputs, 100, name)
  }

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
      guard case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: target.path) else {
        return XCTFail("no endpoint at \(target.path)")
      }
      var headers = HTTPHeaders()
      headers.add(name: "Content-Type", value: target.contentType)
      if let authorization = target.authorization { headers.add(name: "Authorization", value: authorization) }
      let reply = endpoint.handle(
        ReceivedRequest(
          method: .POST, path: target.path, query: target.query, headers: headers, body: Array(body.utf8),
          peerHost: "127.0.0.1"))
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

  func testSegmentDecoder() { fuzz(segment, name: "segment") }
  func testAmplitudeDecoder() { fuzz(amplitude, name: "amplitude") }
  func testAmplitudeOrPostHogBatchDecoder() { fuzz(batch, name: "batch") }
  func testMixpanelJSONDecoder() { fuzz(mixpanel, name: "mixpanel") }
  func testMixpanelFormDecoder() { fuzz(mixpanelForm, name: "mixpanel-form") }
  func testPostHogDecoder() { fuzz(postHog, name: "posthog") }
  func testSnowplowDecoder() { fuzz(snowplow, name: "snowplow") }
  func testGA4Decoder() { fuzz(ga4, name: "ga4") }
  func testGA4ValidationDecoder() { fuzz(ga4Validation, name: "ga4-validation") }
  func testMParticleDecoder() { fuzz(mParticle, name: "mparticle") }
  func testMParticleBulkDecoder() { fuzz(mParticleBulk, name: "mparticle-bulk") }
}
