import AnalyticsHub
import XCTest

@testable import TagscopeServer

/// The fields issue 44's last round left reported but not read: mParticle mobile crash, push and
/// network-performance messages and the batch header's consent, data plan, deleted attributes and
/// integration attributes are carried under the Events API's names; the Events API's
/// `device_info`, `application_info`, `consent_state` and `context` are checked key by key against
/// its schema; a PostHog batch decoded lazily checks its request's own fields as one decoded whole.
final class SDKFieldAccountEdgeTests: XCTestCase {
  // MARK: mParticle's iOS and Android SDKs

  /// The iOS SDK's recorded consent and error batches raise nothing: the consent state and each
  /// crash report key is carried (`is`, `iba`, `eh`, `s`, `m`, `c`).
  func testTheIOSSDKsRecordedConsentAndErrorBatchesRaiseNothing() throws {
    for seed in MParticleNativeSeeds.iOSConsentAndErrors {
      let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: seed)).events
      XCTAssertFalse(events.isEmpty)
      XCTAssertEqual(events.flatMap(unread), [], String(seed.prefix(160)))
    }
    let error = try XCTUnwrap(
      endpointReply("/v2/us1-abc/events", body: MParticleNativeSeeds.iOSConsentAndErrors[2])?.events.first)
    let data = Payload.object(error.call.parameters["data"])
    XCTAssertEqual(error.call.parameters["event_type"], "crash_report")
    XCTAssertEqual(data["class_name"], "NSInvalidArgumentException")
    XCTAssertEqual(data["severity"], "error")
    XCTAssertEqual(data["exception_handled"], "true")
    XCTAssertEqual(data["ios_image_size"], .int(1_048_576))
  }

  /// Android's push message and network performance messages (`MessageManager.java`) and a
  /// push registration are carried under the Events API's names; keys with no Events API field
  /// stay reported by place.
  func testPushAndNetworkPerformanceMessagesAreCarriedInTheEventsAPIsNames() throws {
    let body =
      #"{"dt":"h","id":"b","ct":1764112800000,"mpid":1,"msgs":["#
      + #"{"dt":"pm","ct":1764112798000,"pay":"{\"title\":\"Hi\"}","t":"received","to":"tok","as":"background","#
      + #""bhv":"DirectOpen","content_id":7},"#
      + #"{"dt":"npe","ct":1764112799000,"v":"GET","url":"https://example.com/a","te":120,"bo":10,"bi":2048,"#
      + #""rc":200},"#
      + #"{"dt":"pr","ct":1764112799500,"to":"tok","tot":"google","r":true},"#
      + #"{"dt":"x","ct":1764112799600,"s":"fatal","m":"boom","st":"at A","eh":"false","sn":3,"csg":"SIGABRT"}]}"#
    let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: body)).events
    XCTAssertEqual(events.map(unread), [["msgs[0].content_id"], [], ["msgs[2].tot"], ["msgs[3].csg"]])
    let data = events.map { Payload.object($0.call.parameters["data"]) }
    XCTAssertEqual(data[0]["push_message_type"], "received")
    XCTAssertEqual(data[0]["push_message_token"], "tok")
    XCTAssertEqual(data[0]["push_message_behavior"], "DirectOpen")
    XCTAssertEqual(data[1]["http_verb"], "GET")
    XCTAssertEqual(data[1]["response_code"], .int(200))
    XCTAssertEqual(data[1]["bytes_in"], .int(2048))
    XCTAssertEqual(data[2]["registration_token"], "tok")
    XCTAssertEqual(data[3]["stack_trace"], "at A")
  }

  /// The header's consent state, data plan context, deleted user attributes and integration
  /// attributes are carried; a consent or data plan key the SDKs do not send is reported by place.
  func testAMobileBatchsConsentAndDataPlanAreCheckedKeyByKey() throws {
    let body =
      #"{"dt":"h","id":"b","ct":1764112800000,"mpid":1,"uad":["tier"],"ia":{"1":{"a":"b"}},"#
      + #""ctx":{"dpln":{"id":"plan","v":2,"zz":1}},"#
      + #""con":{"gdpr":{"p":{"c":true,"d":"v4","ts":1700000000000,"yy":1}},"lgpd":{}},"#
      + #""msgs":[{"dt":"e","ct":1764112798000,"n":"A","et":"Other"}]}"#
    let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: body)).events
    XCTAssertEqual(events.map(unread), [["con.lgpd", "con.gdpr.p.yy", "ctx.dpln.zz"]])
    let kept = Payload.object(events[0].annotations["batch"])
    XCTAssertEqual(kept["uad"], .array(["tier"]))
    XCTAssertNotNil(kept["con"])
  }

  // MARK: mParticle's Events API

  /// `device_info` and `application_info` are checked member by member against the Events API's
  /// schema, as the mobile header's `di` and `ai` are; what the web SDK sends raises nothing.
  func testAnEventsAPIBatchsDeviceAndApplicationInfoAreCheckedKeyByKey() throws {
    let body =
      #"{"events":[{"data":{"event_name":"E"},"event_type":"custom_event"}],"mpid":"1","#
      + #""device_info":{"platform":"Android","os_version":"14","limit_ad_tracking":false,"zz":1},"#
      + #""application_info":{"application_name":"A","package":"p","yy":2},"#
      + #""consent_state":{"gdpr":{"location":{"consented":true,"xx":3}}},"#
      + #""context":{"data_plan":{"plan_id":"p","plan_version":1}}}"#
    let reply = try XCTUnwrap(endpointReply("/v2/events", body: body, authorization: "Basic azpz"))
    XCTAssertEqual(
      reply.events.map(unread), [["device_info.zz", "application_info.yy", "consent_state.gdpr.location.xx"]])
    let notAnObject = body.replacingOccurrences(
      of: #"{"platform":"Android","os_version":"14","limit_ad_tracking":false,"zz":1}"#, with: #""Pixel""#)
    let whole = try XCTUnwrap(endpointReply("/v2/events", body: notAnObject, authorization: "Basic azpz"))
    XCTAssertEqual(whole.events.first.map(unread)?.first, "device_info")
    // mParticle/mparticle-web-sdk @ b99ac81 `src/sdkToEventsApiConverter.ts`.
    let web =
      #"{"events":[{"data":{"event_name":"E"},"event_type":"custom_event"}],"mpid":"1","#
      + #""device_info":{"platform":"web","screen_width":1280,"screen_height":800},"#
      + #""application_info":{"application_version":"1.0","package":"p","sideloaded_kits_count":0}}"#
    let fromWeb = try XCTUnwrap(endpointReply("/v3/JS/us1-abc/events", body: web))
    XCTAssertEqual(fromWeb.events.flatMap(unread), [])
  }

  // MARK: PostHog

  /// A batch past ``BulkDelivery/offloadEvents`` is decoded lazily: its query and batch fields
  /// not understood are reported on its first record, as when decoded whole.
  func testAPostHogBatchDecodedLazilyReportsItsRequestsOwnFields() throws {
    let events = (0...BulkDelivery.offloadEvents).map { #"{"event":"e\#($0)","distinct_id":"d"}"# }
    let body =
      #"{"api_key":"phc_k","sent_at":"2026-11-30T04:00:00Z","yy":1,"batch":[\#(events.joined(separator: ","))]}"#
    let query = [(name: "ver", value: "1.200.0"), (name: "zz", value: "1")]
    let whole = try XCTUnwrap(endpointReply("/batch/", body: body, query: query))
    let lazy = try XCTUnwrap(endpointReply("/batch/", body: body, query: query, lazily: true))
    let batch = try XCTUnwrap(lazy.batch)
    let decoded = batch.events(0..<batch.count)
    XCTAssertEqual(decoded.first.map(unread), ["zz", "yy"])
    XCTAssertEqual(decoded.dropFirst().flatMap(unread), [])
    XCTAssertEqual(decoded, whole.events)
  }

  private func unread(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.unread(event) }
}
