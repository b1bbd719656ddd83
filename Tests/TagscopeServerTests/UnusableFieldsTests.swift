import AnalyticsHub
import XCTest

@testable import TagscopeServer

/// Requests whose events are not there — none sent, or a value that is no array — properties that
/// are no object, and call types that are none were recorded as nothing, as empty, or as a guess,
/// without a word: each is now a record (the request's own), a field reported with its place, or a
/// violation that says what was assumed.
final class UnusableFieldsTests: XCTestCase {
  private func unread(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.unread(event) }
  private let ga4Query = [(name: "measurement_id", value: "G-1"), (name: "api_secret", value: "s")]

  /// A GA4 Measurement Protocol request without events is recorded as the request, with the
  /// validator's word on it and its own fields; an `events` that is no array is reported.
  func testAGA4RequestWithoutEventsIsRecorded() throws {
    let empty = #"{"client_id":"c","user_properties":{"tier":{"value":"gold"}},"events":[]}"#
    let records = try XCTUnwrap(endpointReply("/mp/collect", body: empty, query: ga4Query)?.events)
    XCTAssertEqual(records.map(\.name), ["request"])
    XCTAssertEqual(records[0].identity.deviceID, "c")
    XCTAssertFalse(
      records[0].violations.filter { $0.rule.hasPrefix("ga4.") }.isEmpty, "\(records[0].violations)")
    XCTAssertEqual(unread(records[0]), ["user_properties"])
    let object = #"{"client_id":"c","events":{"name":"purchase","params":{"value":1}}}"#
    let single = try XCTUnwrap(endpointReply("/mp/collect", body: object, query: ga4Query)?.events)
    XCTAssertEqual(single.map(\.name), ["request"])
    XCTAssertEqual(unread(single[0]), ["events"])
  }

  /// An mParticle batch whose `events` is no array reports it; one that sets consent alone is
  /// recorded (mparticle-python `models/batch.py`: `consent_state`, `events` none by default).
  func testAnMParticleBatchWithoutUsableEventsIsRecorded() throws {
    let object = #"{"events":{"event_type":"custom_event","data":{"event_name":"E"}},"mpid":"1"}"#
    let records = try XCTUnwrap(
      endpointReply("/v2/events", body: object, authorization: "Basic a2V5OnNlY3JldA==")?.events)
    XCTAssertEqual(records.count, 1)
    XCTAssertEqual(unread(records[0]), ["events"])
    let consent =
      #"{"events":[],"consent_state":{"gdpr":{"marketing":{"consented":false,"document":"v2","#
      + #""timestamp_unixtime_ms":1764112800000}}},"mpid":"1"}"#
    let consented = try XCTUnwrap(
      endpointReply("/v2/events", body: consent, authorization: "Basic a2V5OnNlY3JldA==")?.events)
    XCTAssertEqual(consented.count, 1)
    let batch = Payload.object(consented[0].annotations["batch"])
    XCTAssertNotNil(batch["consent_state"])
  }

  /// Amplitude properties that are no object are reported, not emptied without a word.
  func testAmplitudePropertiesThatAreNoObjectAreReported() throws {
    let body =
      #"{"api_key":"k","options":{"min_id_length":1},"events":[{"event_type":"E","user_id":"u","#
      + #""event_properties":["a","b"],"user_properties":"x"},{"event_type":"F","user_id":"u","#
      + #""event_properties":{"ok":1},"user_properties":null}]}"#
    let records = try XCTUnwrap(endpointReply("/2/httpapi", body: body)?.events)
    XCTAssertEqual(records.count, 2)
    XCTAssertEqual(unread(records[0]), ["events[0].event_properties", "events[0].user_properties"])
    XCTAssertEqual(unread(records[1]), [])
    XCTAssertEqual(records[1].properties["ok"], .int(1))
  }

  /// Mixpanel, Segment and PostHog properties that are no object are reported (a Mixpanel track's
  /// were then nowhere: neither its call nor its raw text kept them).
  func testPropertiesThatAreNoObjectAreReportedOnEveryDecoder() throws {
    let mixpanel = try XCTUnwrap(
      endpointReply("/track", body: #"[{"event":"Signup","properties":"token=abc&plan=pro"}]"#)?.events.first)
    XCTAssertEqual(unread(mixpanel), ["data[0].properties"])
    let segment = try XCTUnwrap(
      endpointReply(
        "/v1/batch", body: #"{"batch":[{"type":"track","event":"Bought","userId":"u","properties":"a=1"}]}"#,
        authorization: "Basic a2V5Og==")?.events.first)
    XCTAssertEqual(unread(segment), ["properties"])
    let posthog = try XCTUnwrap(
      endpointReply(
        "/batch", body: #"{"api_key":"k","batch":[{"event":"x","distinct_id":"d","properties":"oops"}]}"#)?
        .events.first)
    XCTAssertEqual(unread(posthog), ["properties"])
  }

  /// A Segment message without a type, or of a type the spec does not have, says what it was read
  /// as; a RudderStack identify's traits are read where rudder-sdk-python sends them
  /// (`client.py` `identify`: `context.traits`, the root's commented out).
  func testSegmentCallTypesAndRudderStackTraits() throws {
    func first(_ message: String) throws -> IngestedEvent {
      try XCTUnwrap(
        endpointReply("/v1/batch", body: #"{"batch":[\#(message)]}"#, authorization: "Basic a2V5Og==")?.events
          .first)
    }
    let untyped = try first(#"{"event":"Bought","userId":"u"}"#)
    XCTAssertEqual(untyped.violations.map(\.rule), ["segment.call-type"])
    XCTAssertEqual(untyped.call.method, "track")
    let unknown = try first(#"{"type":"Track","event":"Bought","userId":"u"}"#)
    XCTAssertEqual(unknown.violations.map(\.rule), ["segment.call-type"])
    XCTAssertTrue(unknown.violations[0].message.hasPrefix(#"type = "Track" is not a call type"#))
    XCTAssertEqual(try first(#"{"type":"track","event":"Bought","userId":"u"}"#).violations, [])
    let rudder = try first(
      #"{"type":"identify","userId":"u1","channel":"server","context":{"traits":{"email":"a@b.c","plan":"pro"}}}"#
    )
    XCTAssertEqual(rudder.provider, "rudderstack")
    XCTAssertEqual(rudder.properties["plan"], .string("pro"))
    XCTAssertEqual(rudder.violations, [])
  }
}
