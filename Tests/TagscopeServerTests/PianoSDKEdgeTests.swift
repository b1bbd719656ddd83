import AnalyticsHub
import XCTest

@testable import TagscopeServer

/// What Piano's SDKs send beyond the plain cases, read from their sources: the Apple SDK's body
/// without a type, placeholder visitor ids, a key sent under two types, repeated query fields,
/// and the legacy SDK's events hits (`col=2`) and `stc` objects.
final class PianoSDKEdgeTests: XCTestCase {
  private let event = #"{"events":[{"name":"page.display","data":{"page":"home"}}]}"#

  private func piano(_ body: String, query: String = "s=552987&idclient=v-1", contentType: String)
    -> SDKReply?
  {
    endpointReply("/event", body: body, query: FormDecoding.pairs(query), contentType: contentType)
  }

  private func hit(_ query: String) throws -> SDKReply {
    try XCTUnwrap(endpointReply("/hit.xiti", body: "", query: FormDecoding.pairs(query)))
  }

  private func sdk(_ event: IngestedEvent) -> Properties {
    Payload.object(event.annotations["sdk_parameters"])
  }

  /// piano-analytics-apple `SendStep.swift` sets no Content-Type on its POST: URLSession sends it
  /// as a form. The body is JSON all the same, and is read.
  func testTheAppleSDKsBodyWithoutATypeIsRead() throws {
    let reply = try XCTUnwrap(piano(event, contentType: "application/x-www-form-urlencoded"))
    XCTAssertEqual(reply.status, .ok)
    XCTAssertEqual(reply.events.map(\.name), ["home"])
    XCTAssertEqual(piano(event, contentType: "image/png")?.status, .badRequest)
  }

  /// The properties piano-analytics-js adds to every event (`metadata.step.js`, the page view id,
  /// the client hints) are the SDK's, not the app's `sendEvent` parameters.
  func testTheWebSDKsOwnPropertiesAreTheSDKs() throws {
    let body =
      #"{"events":[{"name":"click.action","data":{"click":"buy","device_hour":9,"ch_ua_mobile":"?0","#
      + #""pageview_id":"p1","previous_url":"https://x/","has_access":"premium"}}]}"#
    let record = try XCTUnwrap(piano(body, contentType: "text/plain")?.events.first)
    XCTAssertEqual(record.properties, ["click": .string("buy")])
    XCTAssertEqual(
      Payload.object(record.annotations["sdk_properties"]).keys,
      ["device_hour", "ch_ua_mobile", "pageview_id", "previous_url", "has_access"])
  }

  /// A key sent both with and without a type (`dur`, `n:dur`) keeps its first value and type; the
  /// others are reported by their place as sent, not lost or doubled.
  func testAKeySentUnderTwoTypesKeepsTheFirstAndReportsTheRest() throws {
    let body = #"{"events":[{"name":"av.play","data":{"n:dur":3,"dur":"x","s:dur":"y","a":1}}]}"#
    let record = try XCTUnwrap(piano(body, contentType: "application/json")?.events.first)
    XCTAssertEqual(record.properties, ["dur": .int(3), "a": .int(1)])
    XCTAssertEqual(Payload.object(record.annotations["forced_types"]), ["dur": .string("n")])
    XCTAssertEqual(SDKFieldAccountTests.unread(record), ["events[0].data.dur", "events[0].data.s:dur"])
  }

  /// The visitor ids the SDKs send when the visitor may not be told apart (opt-out, no consent, no
  /// storage) name no device: two such phones are not one.
  func testPlaceholderVisitorIdsNameNoDevice() throws {
    for visitor in ["opt-out", "Consent-NO", "no-storage", "OPT-OUT"] {
      let record = try XCTUnwrap(
        piano(event, query: "s=1&idclient=\(visitor)", contentType: "application/json")?.events.first)
      XCTAssertNil(record.identity.deviceID, visitor)
      XCTAssertEqual(record.credentials["idclient"], .string(visitor), "kept as sent")
      let legacy = try XCTUnwrap(hit("s=1&idclient=\(visitor)&p=home").events.first)
      XCTAssertNil(legacy.identity.deviceID, visitor)
    }
    let named = try XCTUnwrap(
      piano(event, query: "s=1&idclient=abc", contentType: "application/json")?.events)
    XCTAssertEqual(named.first?.identity.deviceID, "abc")
  }

  /// A query field the decoder reads by its first value, sent again (an app's custom query
  /// parameters come before the SDK's on Android, `SendTask.kt`), is reported by its place.
  func testRepeatedFieldsAreReportedNotDropped() throws {
    let record = try XCTUnwrap(
      piano(event, query: "s=1&idclient=a&s=2&idclient=b", contentType: "application/json")?.events.first)
    XCTAssertEqual(record.credentials["s"], .string("1"))
    XCTAssertEqual(SDKFieldAccountTests.unread(record), ["query.s[2]", "query.idclient[3]"])
    let legacy = try XCTUnwrap(hit("s=1&p=home&x1=a&x1=b&x1=a").events.first)
    XCTAssertEqual(legacy.properties["x1"], .string("a"))
    XCTAssertEqual(SDKFieldAccountTests.unread(legacy), ["x1[3]"])
  }

  /// atinternet-android-sdk `Events.java`: `col=2` and `events`, a JSON array of Piano events (the
  /// data nested by `_`, a parent's own value as `$`), with the page as `context`. Each event is
  /// its own record, as Piano Analytics' SDK records it.
  func testALegacyEventsHitIsOneRecordAnEvent() throws {
    let events =
      #"[{"name":"av.play","data":{"av":{"content":{"$":"Ep 1","id":"e1"}},"n:pos":12}},"#
      + #"{"name":"page.display","data":{"page":{"$":"home","chapter1":"news"}}}]"#
    let context = #"[{"data":{"page":{"$":"home"}}}]"#
    let query =
      "s=1&idclient=v-2&col=2&events=\(percent(events))&context=\(percent(context))"
      + "&stc=\(percent(#"{"lifecycle":{"fs":0,"sessionId":"s-9"},"idType":"uuid"}"#))"
    let records = try hit(query).events
    XCTAssertEqual(records.map(\.kind), [.event, .screen])
    XCTAssertEqual(records.map(\.name), ["av.play", "home"])
    XCTAssertEqual(
      records[0].properties, ["av_content": .string("Ep 1"), "av_content_id": .string("e1"), "pos": .int(12)])
    XCTAssertEqual(records[1].properties, ["page": .string("home"), "page_chapter1": .string("news")])
    XCTAssertEqual(records[0].call.method, "sendEvent")
    XCTAssertEqual(records[0].call.name, "av.play")
    XCTAssertNotNil(records[0].annotations["context"])
    XCTAssertEqual(records.map(\.identity.sessionID), ["s-9", "s-9"])
    XCTAssertEqual(sdk(records[0])["idType"], .string("uuid"))
    XCTAssertNil(sdk(records[0])["events"], "read apart, not kept again as text")
    XCTAssertEqual(records.flatMap(SDKFieldAccountTests.unread), [])
    // A custom parameter of the hit belongs to none of its events: reported, as sent.
    let withCustom = try hit(query + "&x1=shelf").events
    XCTAssertEqual(withCustom.flatMap(SDKFieldAccountTests.unread), ["hit.x1"])
  }

  /// A part of a hit the SDK split (`mh`, `Core.java` slices `stc` and `events` as text) is not
  /// refused: what does not parse is kept as sent and reported.
  func testASlicedPartIsKeptAndReported() throws {
    let part = try hit("s=1&mh=1-2-12030412345&p=home&stc=\(percent(#"{"a":1"#))")
    XCTAssertEqual(part.status, .ok)
    let record = try XCTUnwrap(part.events.first)
    XCTAssertEqual(SDKFieldAccountTests.unread(record), ["stc"])
    let events = try hit("s=1&col=2&events=\(percent(#"[{"name":"a"#))")
    XCTAssertEqual(events.status, .ok)
    XCTAssertEqual(events.events.flatMap(SDKFieldAccountTests.unread), ["events"])
    // An event whose data is no object keeps its name, its data kept as sent and reported.
    let noObject = try hit("s=1&col=2&events=\(percent(#"[{"name":"a","data":5}]"#))").events
    XCTAssertEqual(noObject.map(\.name), ["a"])
    XCTAssertEqual(noObject.flatMap(SDKFieldAccountTests.unread), ["events[0].data"])
  }

  /// An event's data whose one long parent holds many children (each flattened key made whole)
  /// is reported as sent once its keys pass their bound, not flattened into megabytes of keys.
  func testALegacyEventsFlattenedKeysAreBounded() throws {
    let children = (0..<2_000).map { "\"c\($0)\":1" }.joined(separator: ",")
    let events = #"[{"name":"a","data":{"\#(String(repeating: "P", count: 20_000))":{\#(children)}}}]"#
    let records = try hit("s=1&col=2&events=\(percent(events))").events
    XCTAssertEqual(records.map(\.name), ["a"])
    XCTAssertEqual(records.first?.properties, [:])
    XCTAssertEqual(records.flatMap(SDKFieldAccountTests.unread), ["events[0].data"])
  }

  private func percent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }
}
