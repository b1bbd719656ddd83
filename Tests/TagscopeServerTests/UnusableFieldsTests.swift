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

  /// A GA4 request's device is carried whole on each record (its identity reads two members, the
  /// rest were neither kept nor reported); a device that is no object is reported.
  func testAGA4RequestsDeviceIsCarried() throws {
    let body =
      #"{"client_id":"c","device":{"category":"mobile","language":"fr","screen_resolution":"1280x2856","#
      + #""operating_system":"Android","operating_system_version":"14","model":"Pixel 9","brand":"Google"},"#
      + #""events":[{"name":"tap"},{"name":"open"}]}"#
    let records = try XCTUnwrap(endpointReply("/mp/collect", body: body, query: ga4Query)?.events)
    XCTAssertEqual(records.map(\.name), ["tap", "open"])
    for record in records {
      XCTAssertEqual(Payload.object(record.annotations["device"])["language"], "fr")
      XCTAssertEqual(Payload.object(record.annotations["device"]).count, 7)
      XCTAssertEqual(unread(record), [])
    }
    XCTAssertEqual(records[0].identity.model, "Pixel 9")
    let text = #"{"client_id":"c","device":"Pixel 9","events":[{"name":"tap"}]}"#
    let reported = try XCTUnwrap(endpointReply("/mp/collect", body: text, query: ga4Query)?.events)
    XCTAssertEqual(unread(reported[0]), ["device"])
    XCTAssertNil(reported[0].annotations["device"])
  }

  /// A Segment batch's body write key other than the request's Basic auth user, or one that is no
  /// text, is reported (the records kept the auth user's alone); the same key is not.
  func testASegmentBatchsOtherWriteKeyIsReported() throws {
    let batch = #"{"writeKey":"body-key","batch":[{"type":"track","event":"Tap","userId":"u"}]}"#
    let other = try XCTUnwrap(
      endpointReply("/v1/batch", body: batch, authorization: "Basic YXV0aC1rZXk6")?.events)
    XCTAssertEqual(other[0].credentials["writeKey"], "auth-key")
    XCTAssertEqual(unread(other[0]), ["writeKey"])
    let same = try XCTUnwrap(
      endpointReply("/v1/batch", body: batch, authorization: "Basic Ym9keS1rZXk6")?.events)
    XCTAssertEqual(unread(same[0]), [])
    let number = #"{"writeKey":7,"batch":[{"type":"track","event":"Tap","userId":"u"}]}"#
    let reported = try XCTUnwrap(endpointReply("/v1/batch", body: number)?.events)
    XCTAssertEqual(unread(reported[0]), ["writeKey"])
  }

  /// A Mixpanel profile message's fields that are neither an operation nor whose profile it is
  /// are reported (a `$`-field was taken as an operation, any other was dropped); one with no
  /// operation is recorded as itself with the violation that it changes nothing, not as an
  /// invented `$set`.
  func testAMixpanelProfileMessagesOtherFieldsAndMissingOperationAreSaid() throws {
    let odd = #"[{"$token":"t","$distinct_id":"d","$set":{"plan":"pro"},"$sett":{"x":1},"plan":"pro"}]"#
    let records = try XCTUnwrap(endpointReply("/engage", body: odd)?.events)
    XCTAssertEqual(records.map(\.name), ["$set"])
    XCTAssertEqual(unread(records[0]), ["$sett", "plan"])
    let none = #"[{"$token":"t","$distinct_id":"d","$ip":"0"}]"#
    let empty = try XCTUnwrap(endpointReply("/engage", body: none)?.events)
    XCTAssertEqual(empty.map(\.name), ["engage"])
    XCTAssertEqual(empty[0].violations.map(\.rule), ["mixpanel.no-operation"])
    XCTAssertEqual(unread(empty[0]), [])
    let known = #"[{"$token":"t","$distinct_id":"d","$unset":["a"],"$union":{"tags":["x"]}}]"#
    let operations = try XCTUnwrap(endpointReply("/engage", body: known)?.events)
    XCTAssertEqual(operations.map(\.name), ["$unset", "$union"])
    XCTAssertEqual(operations.flatMap(\.violations), [])
  }

  /// An mParticle event's name that is not there is said, not guessed without a word: an event
  /// type the Events API lacks, a custom event or screen view without its name, a commerce event
  /// naming no action, a crash report mparticle-python sends as a commerce event; custom
  /// attributes that are no object are reported, not emptied.
  func testAnMParticleEventsMissingNameAndUnusableAttributesAreSaid() throws {
    let events = [
      #"{"event_type":"custom","data":{"event_name":"E"}}"#,
      #"{"event_type":"custom_event","data":{"custom_attributes":{"a":1}}}"#,
      #"{"event_type":"screen_view","data":{"screen_name":null}}"#,
      #"{"event_type":"commerce_event","data":{}}"#,
      #"{"event_type":"custom_event","data":{"event_name":"Tap","custom_attributes":"a=1"}}"#,
      #"{"event_type":"session_start","data":{}}"#,
      #"{"event_type":"commerce_event","data":{"class_name":"IOError","stack_trace":"at main"}}"#,
      #"{"event_type":"uninstall","data":{}}"#,
    ]
    let body = #"{"events":["# + events.joined(separator: ",") + #"],"mpid":"1"}"#
    let records = try XCTUnwrap(
      endpointReply("/v2/events", body: body, authorization: "Basic a2V5OnNlY3JldA==")?.events)
    XCTAssertEqual(
      records.map(\.name),
      [
        "custom", "custom_event", "screen_view", "commerce_event", "Tap", "session_start", "crash_report",
        "uninstall",
      ])
    XCTAssertEqual(
      records.map { $0.violations.map(\.rule) },
      [
        ["mparticle.event-type"], ["mparticle.event-name"], ["mparticle.event-name"],
        ["mparticle.event-name"],
        ["sdk.field-not-understood"], [], ["mparticle.event-type"], [],
      ])
    XCTAssertEqual(records[1].properties, ["a": .int(1)])
    XCTAssertEqual(unread(records[4]), ["data.custom_attributes"])
    XCTAssertEqual(records[4].properties, [:])
  }

  /// A Snowplow event's name that is not there is said, not guessed without a word: an `e` the
  /// tracker protocol lacks, a self-describing event without a schema (it was named ""), a
  /// structured event without its action; a self-describing `data` that is no object is reported.
  func testASnowplowEventsMissingNameAndUnusableDataAreSaid() throws {
    func ue(_ data: String) -> String {
      #"{"e":"ue","ue_pr":"{\"schema\":\"iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0\",\"data\":"#
        + data + #"}"}"#
    }
    let events = [
      #"{"e":"xx"}"#, ue(#"{\"data\":{\"a\":1}}"#), #"{"e":"se","se_ca":"c"}"#,
      ue(#"{\"schema\":\"iglu:com.acme/tap/jsonschema/1-0-0\",\"data\":\"a=1\"}"#),
      ue(#"\"text\""#), #"{"e":"pv","url":"https://x"}"#,
    ]
    let body =
      #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":["#
      + events.joined(separator: ",") + "]}"
    let records = try XCTUnwrap(endpointReply("/com.snowplowanalytics.snowplow/tp2", body: body)?.events)
    XCTAssertEqual(records.map(\.name), ["xx", "ue", "struct", "tap", "ue", "https://x"])
    XCTAssertEqual(
      records.map { $0.violations.map(\.rule) },
      [
        ["snowplow.event-type"], ["snowplow.event-name"], ["snowplow.event-name"],
        ["sdk.field-not-understood"],
        ["snowplow.event-name", "sdk.field-not-understood"], [],
      ])
    XCTAssertEqual(records[1].properties, ["a": .int(1)])
    XCTAssertEqual(unread(records[3]), ["unstruct_event.data.data"])
    XCTAssertEqual(unread(records[4]), ["unstruct_event.data"])
  }

  /// Amplitude options the API does not read — no object, a minimum id length that is no whole
  /// number — are reported: the defaults they fell back to were taken without a word.
  func testAmplitudeOptionsThatDoNotReadAreReported() throws {
    let event = #""events":[{"event_type":"Tap","user_id":"user-1234"}]"#
    for (options, reported) in [
      (#""options":{"min_id_length":"3"}"#, ["options.min_id_length"]), (#""options":7"#, ["options"]),
      (#""options":{"min_id_length":3}"#, []),
    ] {
      let body = #"{"api_key":"k","# + options + "," + event + "}"
      let records = try XCTUnwrap(endpointReply("/2/httpapi", body: body)?.events)
      XCTAssertEqual(records.map(\.name), ["Tap"])
      XCTAssertEqual(unread(records[0]), reported, options)
    }
  }

  /// A PostHog identify's traits set only once are kept beside the call (they were dropped with
  /// the event's other properties; an empty set is none), and a `$set_once` event's are its traits.
  func testAPostHogIdentifysTraitsSetOnceAreKept() throws {
    let body =
      #"{"api_key":"phc_k","batch":[{"event":"$identify","distinct_id":"d","$set":{"plan":"pro"},"#
      + #""$set_once":{"first_seen":"2026-11-01"}},"#
      + #"{"event":"$set_once","distinct_id":"d","properties":{"$set_once":{"source":"ad"}}}]}"#
    let records = try XCTUnwrap(endpointReply("/batch", body: body)?.events)
    XCTAssertEqual(records.map(\.kind), [.identify, .identify])
    XCTAssertEqual(records[0].properties, ["plan": "pro"])
    XCTAssertEqual(records[0].annotations["set_once"], .object(["first_seen": "2026-11-01"]))
    XCTAssertEqual(records[1].properties, ["source": "ad"])
    let empty =
      #"{"api_key":"phc_k","batch":[{"event":"$identify","distinct_id":"d","#
      + #""properties":{"$set":{"plan":"pro"},"$set_once":{}}}]}"#
    let identify = try XCTUnwrap(endpointReply("/batch", body: empty)?.events.first)
    XCTAssertEqual(identify.properties, ["plan": "pro"])
    XCTAssertNil(identify.annotations["set_once"])
  }

  /// A Snowplow event reads each field by its first value: a later, different value of a field
  /// (a GET hit's repeated parameter) and a part sent both ways (`ue_pr` and `ue_px`) are
  /// reported, and the call's parameters hold the first, as its name does.
  func testASnowplowEventsRepeatedFieldsAndPartsAreReported() throws {
    let reply = try XCTUnwrap(
      endpointReply(
        "/com.snowplowanalytics.snowplow/tp2",
        body:
          #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":[{"e":"se","#
          + #""se_ac":"first","co":"{\"data\":[]}","cx":"e30="}]}"#))
    let record = try XCTUnwrap(reply.events.first)
    XCTAssertEqual(record.name, "first")
    XCTAssertEqual(unread(record), ["cx"])
    let hit = SnowplowEndpoint.event(
      [("e", "se"), ("se_ac", "first"), ("se_ac", "second"), ("se_ac", "first")], raw: "")
    XCTAssertEqual(hit?.name, "first")
    XCTAssertEqual(hit?.call.parameters["se_ac"], "first")
    XCTAssertEqual(hit.map(unread), ["se_ac[2]"])
  }

  /// An id that names no one (an object, an array, a flag where text or a number is meant) is
  /// reported by every decoder that reads ids by the registry's paths: the record was otherwise
  /// sent by nobody, or by the next id, without a word.
  func testIdsThatNameNoOneAreReported() throws {
    let segment = try XCTUnwrap(
      endpointReply(
        "/v1/batch", body: #"{"batch":[{"type":"track","event":"Tap","userId":{"id":1},"anonymousId":"a"}]}"#)?
        .events.first)
    XCTAssertEqual(segment.identity.anonymousID, "a")
    XCTAssertEqual(unread(segment), ["userId"])
    let posthog = try XCTUnwrap(
      endpointReply("/batch", body: #"{"api_key":"k","batch":[{"event":"e","distinct_id":["d"]}]}"#)?.events
        .first)
    XCTAssertEqual(unread(posthog), ["distinct_id"])
    let amplitude = try XCTUnwrap(
      endpointReply(
        "/2/httpapi",
        body: #"{"api_key":"k","events":[{"event_type":"Tap","user_id":true,"device_id":"device-1"}]}"#)?
        .events.first)
    XCTAssertEqual(unread(amplitude), ["events[0].user_id"])
    let mixpanel = try XCTUnwrap(
      endpointReply("/track", body: #"[{"event":"Tap","properties":{"token":"t","distinct_id":{"a":1}}}]"#)?
        .events.first)
    XCTAssertEqual(unread(mixpanel), ["data[0].properties.distinct_id"])
    let ga4 = try XCTUnwrap(
      endpointReply(
        "/mp/collect",
        body: #"{"client_id":{"c":1},"user_id":"u","events":[{"name":"tap","params":{"session_id":[1]}}]}"#,
        query: ga4Query)?.events.first)
    XCTAssertEqual(unread(ga4), ["events[0].params.session_id", "client_id"])
    let mparticle = try XCTUnwrap(
      endpointReply(
        "/v2/events",
        body: #"{"events":[{"event_type":"custom_event","data":{"event_name":"E"}}],"mpid":"1","#
          + #""user_identities":{"customerid":["c"]}}"#, authorization: "Basic a2V5OnNlY3JldA==")?.events
        .first)
    XCTAssertEqual(unread(mparticle), ["user_identities.customerid"])
    let fine = try XCTUnwrap(
      endpointReply(
        "/v1/batch", body: #"{"batch":[{"type":"track","event":"Tap","userId":7,"anonymousId":null}]}"#)?
        .events.first)
    XCTAssertEqual(unread(fine), [])
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
