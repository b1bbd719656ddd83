import AnalyticsHub
import TagscopeBasics
import XCTest

@testable import TagscopeServer

/// What Braze's and Adobe's SDKs send beyond the plain cases, read from their sources (the
/// Android SDKs' event enums and request serializers), and hostile bodies that once cost far
/// more than their size.
final class BrazeAdobeSDKEdgeTests: XCTestCase {
  private func braze(_ body: String, path: String = "/api/v3/data") throws -> [IngestedEvent] {
    try XCTUnwrap(endpointReply(path, body: body)).events
  }

  private func unread(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.unread(event) }

  /// An attribute object's field not understood (a `custom` that is no object) is reported on its
  /// first record only: on each of 2,000 attributes, a 100 KB value was 200 MB of records.
  func testAnAttributeObjectsUnreadFieldIsOnItsFirstRecordOnly() throws {
    let sets = (0..<50).map { "\"a\($0)\":0" }.joined(separator: ",")
    let body =
      #"{"api_key":"k","attributes":[{"custom":"\#(String(repeating: "x", count: 1_000))",\#(sets)}]}"#
    let records = try braze(body)
    XCTAssertEqual(records.count, 50)
    XCTAssertEqual(unread(records[0]), ["attributes[0].custom"])
    XCTAssertEqual(records.dropFirst().flatMap(unread), [])
  }

  /// The current Android SDK's codes (`pde`, `bi`, `bc`, `bd`, `ncam`, `sgu`) are its calls, not
  /// unknown types.
  func testTheCurrentAndroidSDKsEventCodesAreKnown() throws {
    let events = [
      #"{"name":"pde","data":{"cid":"c1"}}"#, #"{"name":"bi","data":{"ids":["b1"]}}"#,
      #"{"name":"bc","data":{"id":"b1","bid":"x"}}"#, #"{"name":"bd","data":{"id":"b1"}}"#,
      #"{"name":"ncam","data":{"key":"pet","value":{"name":"Rex"}}}"#,
      #"{"name":"sgu","data":{"group_id":"g-1","status":"subscribed"}}"#,
      #"{"name":"sgu","data":{"group_id":"g-1","status":"unsubscribed"}}"#,
    ]
    let records = try braze(#"{"api_key":"k","events":[\#(events.joined(separator: ","))]}"#)
    XCTAssertEqual(
      records.map { "\($0.call.method) \($0.call.name ?? "")" },
      [
        "sdkEvent push_delivery", "sdkEvent banner_impression", "sdkEvent banner_click",
        "sdkEvent banner_dismissed", "setCustomAttribute pet", "addToSubscriptionGroup g-1",
        "removeFromSubscriptionGroup g-1",
      ])
    XCTAssertEqual(records.flatMap(\.violations).map(\.rule), [])
    XCTAssertEqual(records[4].call.parameters["merge"], .bool(true))
    XCTAssertEqual(records[4].kind, .identify)
  }

  /// A geofence report's `events` (its one event is `geofence_event`) are reported, not dropped;
  /// the Android data request's `sdk_metadata` is the SDK's own.
  func testAGeofenceReportsEventsAreReported() throws {
    let report =
      #"{"api_key":"k","geofence_event":{"name":"g","data":{}},"events":[{"name":"ce","data":{"n":"lost"}}]}"#
    let records = try braze(report, path: "/api/v3/geofence/report")
    XCTAssertEqual(records.flatMap(unread), ["request.events"])
    let data = try braze(#"{"api_key":"k","sdk_metadata":["gms"],"events":[{"name":"ss","data":{}}]}"#)
    XCTAssertEqual(data.flatMap(unread), [])
  }

  /// A hit whose one long level holds many fields (each key made whole: 125 GB within 1 MB) is
  /// refused once its keys pass their bound, in time and memory near its size.
  func testAnAdobeHitsKeysAreBounded() throws {
    let level = String(repeating: "A", count: 100_000)
    let body = "ndh=1&\(level).&" + String(repeating: "x&", count: 20_000) + ".\(level)&pageName=Home"
    let reply = try XCTUnwrap(endpointReply(AdobeWireFixtures.hitPath, body: body))
    XCTAssertEqual(reply.status, .badRequest)
    XCTAssertEqual(reply.events.count, 0)
    // A real hit's levels are short: read.
    let real = try XCTUnwrap(endpointReply(AdobeWireFixtures.hitPath, body: AdobeWireFixtures.actionHit))
    XCTAssertEqual(real.status, .ok)
  }

  /// aepsdk-analytics-android `AnalyticsRequestSerializer.kt`: the ids the app synced are sent as
  /// `cid.<type>.id` and `.as` (`1` authenticated): known, and the authenticated one is the user.
  func testAHitsSyncedCustomerIdsAreKnownAndNameTheUser() throws {
    let body = "ndh=1&cid.&userid.&id=abc&as=1&.userid&crm.&id=c9&as=0&.crm&.cid&pageName=Home&mid=123"
    let event = try XCTUnwrap(endpointReply(AdobeWireFixtures.hitPath, body: body)?.events.first)
    XCTAssertEqual(unread(event), [])
    XCTAssertEqual(event.identity.userID, "abc")
    XCTAssertEqual(event.identity.deviceID, "123")
  }

  /// A link hit other than the mobile SDK's `lnk_o` is the link it names, not a page view; a `pe`
  /// Tagscope does not know is listed among the hit's problems.
  func testLinkHitsOfOtherKindsAreNotPageViews() throws {
    let download = try XCTUnwrap(
      endpointReply(
        AdobeWireFixtures.hitPath, body: "ndh=1&pe=lnk_d&pev1=https%3A%2F%2Fx%2Ff.pdf&pev2=f.pdf")?
        .events.first)
    XCTAssertEqual(download.kind, .event)
    XCTAssertEqual(download.call.method, "trackLink")
    XCTAssertEqual(download.name, "f.pdf")
    let other = try XCTUnwrap(
      endpointReply(AdobeWireFixtures.hitPath, body: "ndh=1&pe=zz&pageName=Home")?.events.first)
    XCTAssertEqual(other.kind, .screen)
    XCTAssertEqual(
      Payload.array(other.annotations["problems"])?.compactMap(Payload.string).first?.hasPrefix("pe=zz"), true
    )
  }

  /// An Edge request's query fields besides the datastream and request id, one sent twice, and a
  /// v2 form's other event key are reported, not dropped.
  func testEdgeQueryFieldsAndTheV2FormsOtherKeyAreReported() throws {
    let body = #"{"events":[{"xdm":{"eventType":"E"}}]}"#
    let query = [("configId", "c"), ("foo", "bar"), ("configId", "d")].map { (name: $0.0, value: $0.1) }
    let event = try XCTUnwrap(endpointReply("/ee/v1/interact", body: body, query: query)?.events.first)
    XCTAssertEqual(event.annotations["config_id"], .string("c"))
    XCTAssertEqual(unread(event), ["query.foo", "query.configId[2]"])
    let both = #"{"event":{"xdm":{"eventType":"E"}},"events":[{"xdm":{"eventType":"LOST"}}]}"#
    let single = try XCTUnwrap(endpointReply("/ee/v2/interact", body: both)?.events)
    XCTAssertEqual(single.count, 1)
    XCTAssertEqual(single.flatMap(unread), ["events"])
    // Every request to Edge, whatever it asks: consent and identity requests too.
    let consent = try XCTUnwrap(
      endpointReply(
        "/ee/v1/privacy/set-consent", body: AdobeEdgeConsentAndV2Tests.consent("y"), query: query)?
        .events.first)
    XCTAssertEqual(unread(consent), ["query.foo", "query.configId[2]"])
    let acquire = #"{"query":{"identity":{"fetch":["ECID"]}}}"#
    let identity = try XCTUnwrap(
      endpointReply("/ee/v1/identity/acquire", body: acquire, query: query)?.events.first)
    XCTAssertEqual(unread(identity), ["query.foo", "query.configId[2]"])
    XCTAssertEqual(identity.annotations["config_id"], .string("c"))
  }

  /// A consent entry's time that is no ISO 8601 time is recorded at the receive time, and says so.
  func testAConsentTimeThatDoesNotReadIsReported() throws {
    let sent = AdobeEdgeConsentAndV2Tests.consent("y")
    let good = try XCTUnwrap(endpointReply("/ee/v1/privacy/set-consent", body: sent)?.events.first)
    XCTAssertEqual(good.time.map(ISO8601Timestamp.string(from:)), "2026-11-29T09:00:00.500Z")
    let body = sent.replacingOccurrences(of: "2026-11-29T09:00:00.500Z", with: "last tuesday")
    let record = try XCTUnwrap(endpointReply("/ee/v1/privacy/set-consent", body: body)?.events.first)
    XCTAssertNil(record.time)
    XCTAssertEqual(record.violations.map(\.rule), ["adobe.sent-time"])
    XCTAssertTrue(record.violations[0].message.hasPrefix("consent[0].value.metadata.time = \"last tuesday\""))
  }

  /// A posted hit's URL query is not read as the hit: kept and reported.
  func testAPostedHitsQueryIsReported() throws {
    let event = try XCTUnwrap(
      endpointReply(
        AdobeWireFixtures.hitPath, body: "ndh=1&pageName=Home",
        query: [(name: "v1", value: "evar"), (name: "zzz", value: "q")],
        contentType: "application/x-www-form-urlencoded")?.events.first)
    XCTAssertEqual(unread(event), ["query.v1", "query.zzz"])
  }

  /// The Edge Consent extension's value is read for versions 1.0 and 2.0 only: another says why
  /// no decision is recorded instead of being read as 2.0.
  func testAnUnknownAdobeConsentVersionDecidesNothing() throws {
    let body = #"{"consent":[{"standard":"Adobe","version":"9.9","value":{"collect":{"val":"y"}}}]}"#
    let event = try XCTUnwrap(endpointReply("/ee/v1/privacy/set-consent", body: body)?.events.first)
    XCTAssertNil(event.properties["granted"])
    XCTAssertEqual(
      event.annotations["problems"],
      .array([#"consent[0].version: "9.9", not 1.0 or 2.0: no decision recorded"#]))
  }

  /// What the SDKs always send, missing (an attribute change's value, a purchase's product id),
  /// is recorded as assumed and says so.
  func testAMissingValueOrProductIdSaysSo() throws {
    let events =
      #"{"name":"inc","data":{"key":"visits"}},{"name":"set","data":{"key":"tags","value":null}},"#
      + #"{"name":"p","data":{"c":"USD","p":1}}"#
    let records = try braze(#"{"api_key":"k","events":[\#(events)]}"#)
    XCTAssertEqual(records[0].call.parameters["by"], .int(1))
    XCTAssertEqual(
      records.map { $0.violations.map(\.rule) }, [["braze.attribute-value"], [], ["braze.purchase-product"]])
  }

  /// A time that does not read (a hit's `ts` not in seconds, an Edge `timestamp` not ISO 8601) is
  /// said as every decoder says it (`adobe.sent-time`), and a page view without `pageName` is
  /// listed among the record's problems, not passed over.
  func testUnreadableTimesAndAnUnnamedViewAreListed() throws {
    let hit = try XCTUnwrap(
      endpointReply(AdobeWireFixtures.hitPath, body: "ndh=1&ts=nan&mid=1")?.events.first)
    XCTAssertNil(hit.time)
    XCTAssertEqual(
      Payload.array(hit.annotations["problems"])?.compactMap(Payload.string),
      ["pageName: none, the view unnamed"])
    XCTAssertEqual(hit.violations.map(\.rule), ["adobe.sent-time"])
    XCTAssertTrue(hit.violations.first?.message.hasPrefix("ts = \"nan\"") ?? false, "\(hit.violations)")
    let body = #"{"events":[{"xdm":{"eventType":"E","timestamp":"bogus"}}]}"#
    let edge = try XCTUnwrap(endpointReply("/ee/v1/interact", body: body)?.events.first)
    XCTAssertNil(edge.annotations["problems"])
    XCTAssertEqual(edge.violations.map(\.rule), ["adobe.sent-time"])
    XCTAssertTrue(
      edge.violations.first?.message.hasPrefix(#"events[0].xdm.timestamp = "bogus""#) ?? false,
      "\(edge.violations)")
  }

  /// A subscription group update of a status Tagscope does not know is kept whole and says so.
  func testAnUnknownSubscriptionStatusSaysSo() throws {
    let body = #"{"api_key":"k","events":[{"name":"sgu","data":{"group_id":"g","status":"paused"}}]}"#
    let record = try XCTUnwrap(try braze(body).first)
    XCTAssertEqual(record.call.parameters["status"], .string("paused"))
    XCTAssertEqual(record.violations.map(\.rule), ["braze.subscription-status"])
  }
}
