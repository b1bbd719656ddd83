import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The Braze SDKs' request paths besides data, content cards, feature flags and templates, which
/// `listen` answered `404` and the proxy forwarded unrecorded: push deliveries and geofence
/// transitions are decoded into event records as on `/api/v3/data`; banners, geofence refreshes,
/// push redelivery, the SDK Debugger and DUST are each one record of the SDK's own request, not
/// judged as a tag.
///
/// Bodies as the Braze Android SDK's request classes write them (decompiled, code index ids:
/// endpoint enum 59833840673; push deliveries 61533628674 `events`; geofence report 21051263250
/// `geofence_event`; geofence refresh 54585810645 `location_event`; banners 61564023008
/// `placements`, `time_ms`, `pending_dismissals`; push redelivery 58042309494 `campaign_ids`,
/// `last_sync_at`, `dedupe_ids`; SDK Debugger 61573152343, 61694743297 `data` of `sdk_event_log`
/// lines; DUST 61680666059), on the request fields every request carries.
final class BrazeSDKPathTests: XCTestCase {
  static let fields =
    #""api_key":"k-android","device_id":"d-android","time":1700000000,"sdk_version":"36.0.0","#
    + #""app_version":"2.1","user_id":"u-1""#

  static let pushDeliveries =
    #"{"events":[{"name":"pd","data":{"cid":"campaign-1"},"time":1700000010,"user_id":"u-1"}],"# + fields
    + "}"
  static let geofenceReport =
    #"{"geofence_event":{"name":"g","data":{"id":"fence-1","event_type":"enter"},"time":1700000020},"#
    + fields + "}"
  static let banners =
    #"{"placements":[{"id":"home"},{"id":"cart"}],"time_ms":1700000030000,"#
    + #""pending_dismissals":[{"banner_id":"b-1","stable_key":"s-1","dismissal_time":1700000029000}],"#
    + fields + "}"
  static let geofences =
    #"{"location_event":{"name":"lr","data":{"latitude":48.85,"longitude":2.35,"ll_accuracy":12.0},"#
    + #""time":1700000040},"# + fields + "}"
  static let redelivery =
    #"{"campaign_ids":["c-1","c-2"],"last_sync_at":1699990000,"dedupe_ids":["x-1"],"# + fields + "}"
  static let debuggerStart = "{\(fields)}"
  static let debuggerLog =
    #"{"data":[{"type":"sdk_event_log","data":[{"log":"Braze SDK started","time":1700000050000}]}],"#
    + fields + "}"
  static let dust = "{\(fields)}"
  /// The iOS SDK's Live Activity push token tag: `tag` (braze-docs `live_activities.md`), on the
  /// request fields every request carries (assumed: no body is published).
  static let pushTokenTag = #"{"tag":"order-1042","# + fields + "}"

  /// Each request of the SDK's own, with its record's name, call and parameters.
  static let ownRequests: [(path: String, body: String, name: String, method: String, asked: [String])] = [
    (
      "/api/v3/banners/sync", banners, "banners_sync", "requestBannersRefresh",
      ["placements", "time_ms", "pending_dismissals"]
    ),
    ("/api/v3/geofence/request", geofences, "geofences_refresh", "requestGeofences", ["location_event"]),
    (
      "/api/v3/push/redeliver", redelivery, "push_redelivery", "requestPushRedelivery",
      ["campaign_ids", "last_sync_at", "dedupe_ids"]
    ),
    ("/api/v3/debugger/init", debuggerStart, "sdk_debugger_start", "sdkDebuggerStart", []),
    ("/api/v3/debugger/log", debuggerLog, "sdk_debugger_log", "sdkDebuggerLog", ["data"]),
    ("/api/v3/dust/config", dust, "dust_config", "requestDustConfig", []),
    ("/api/v3/push_token_tag", pushTokenTag, "live_activity_push_token_tag", "launchActivity", ["tag"]),
  ]

  /// What the Android SDK's response parser reads from each answer (`com.braze.models.response.g`):
  /// no geofences for a refresh, a success without content for the others.
  static func answer(_ path: String) -> String {
    path == "/api/v3/geofence/request" ? #"{"message":"success","geofences":[]}"# : #"{"message":"success"}"#
  }

  func testEachOwnRequestIsOneRecordOfTheSDKAnsweredAsASuccess() throws {
    for request in Self.ownRequests {
      let reply = try XCTUnwrap(endpointReply(request.path, body: request.body), request.path)
      XCTAssertEqual(reply.status, .ok, request.path)
      XCTAssertEqual(reply.body, Self.answer(request.path), request.path)
      XCTAssertEqual(reply.events.count, 1, request.path)
      let event = try XCTUnwrap(reply.events.first)
      XCTAssertEqual(event.provider, "braze")
      XCTAssertEqual(event.kind, .identify, "\(request.path): not a tag a plan judges")
      XCTAssertEqual(event.name, request.name)
      XCTAssertEqual(event.call.method, request.method)
      XCTAssertEqual(event.call.parameters.keys, request.asked, request.path)
      XCTAssertEqual(event.identity.deviceID, "d-android")
      XCTAssertEqual(event.identity.userID, "u-1")
      XCTAssertNil(event.annotations["unread"], "\(request.path): every field known")
      XCTAssertTrue(event.violations.isEmpty, request.path)
    }
  }

  func testPushDeliveriesAndGeofenceTransitionsAreDecodedAsEvents() throws {
    let deliveries = try XCTUnwrap(endpointReply("/api/v3/push/delivery_events", body: Self.pushDeliveries))
    XCTAssertEqual(deliveries.status, .ok)
    let delivery = try XCTUnwrap(deliveries.events.first)
    XCTAssertEqual(deliveries.events.count, 1)
    XCTAssertEqual(delivery.kind, .event)
    XCTAssertEqual(delivery.name, "push_delivery")
    XCTAssertEqual(
      delivery.call,
      CallDescription(method: "sdkEvent", name: "push_delivery", parameters: ["cid": "campaign-1"]))
    XCTAssertEqual(delivery.time?.timeIntervalSince1970, 1_700_000_010)
    XCTAssertTrue(delivery.violations.isEmpty, "pd is a type code Tagscope knows")

    let report = try XCTUnwrap(endpointReply("/api/v3/geofence/report/", body: Self.geofenceReport))
    XCTAssertEqual(report.status, .ok)
    let transition = try XCTUnwrap(report.events.first)
    XCTAssertEqual(report.events.count, 1)
    XCTAssertEqual(transition.name, "geofence")
    XCTAssertEqual(transition.call.parameters, ["id": "fence-1", "event_type": "enter"])
    XCTAssertEqual(transition.identity.deviceID, "d-android")
    XCTAssertNil(
      Payload.object(transition.annotations["request"])["geofence_event"], "held by the record, once")
    XCTAssertNil(transition.annotations["unread"])
    XCTAssertTrue(transition.violations.isEmpty)

    for body in [#"{"api_key":"k","geofence_event":[]}"#, #"{"api_key":"k","events":[]}"#] {
      let refused = try XCTUnwrap(endpointReply("/api/v3/geofence/report", body: body))
      XCTAssertEqual(refused.status, .badRequest, body)
      XCTAssertEqual(refused.rejection, .invalidPayload, body)
    }
  }

  /// A field Tagscope does not know is kept with its place and reported, on the SDK's own
  /// requests as on the others.
  func testUnknownFieldsAreReported() throws {
    let odd = #"{"api_key":"k","device_id":"d","level":"verbose"}"#
    let event = try XCTUnwrap(endpointReply("/api/v3/debugger/init", body: odd)?.events.first)
    XCTAssertEqual(FieldAccount.places(in: event.annotations), ["request.level"])
    XCTAssertEqual(event.violations.map(\.rule), [FieldAccount.rule])
  }

  /// The push token's own field is named by no public source: whatever the SDK sends besides the
  /// tag and the request fields is kept by its place and reported, never guessed.
  func testAPushTokenTagsUnnamedFieldsAreReportedByPlace() throws {
    let body = #"{"tag":"order-1042","push_token":"80f3a1","activity_type":"Delivery","# + Self.fields + "}"
    let event = try XCTUnwrap(endpointReply("/api/v3/push_token_tag", body: body)?.events.first)
    XCTAssertEqual(event.call.parameters, ["tag": "order-1042"])
    XCTAssertEqual(
      Set(FieldAccount.places(in: event.annotations)), ["request.push_token", "request.activity_type"])
    XCTAssertEqual(event.violations.map(\.rule), [FieldAccount.rule])
  }

  func testAPlanDoesNotJudgeTheSDKsOwnRequests() throws {
    let plan = try PlanLoader.load(yaml: "plan: P\nevents:\n  play: {}\n", file: "p.yaml")
    var validator = PlanValidator(plan: plan)
    var devices = DeviceRegistry(limit: 8)
    for request in Self.ownRequests {
      let event = try XCTUnwrap(endpointReply(request.path, body: request.body)?.events.first)
      let placement = devices.place(event, address: "127.0.0.1")
      let record = RecordMaker.record(
        event, seq: 1, source: placement.source, context: placement.context, received: Date())
      XCTAssertEqual(validator.validate(record).map(\.rule), [], request.path)
    }
  }

  /// Through a real `listen`: every path answered and recorded, none refused.
  func testListenRecordsEveryPath() async throws {
    let (server, collector) = try await startServer()
    let all =
      Self.ownRequests.map { ($0.path, $0.body) }
      + [
        ("/api/v3/push/delivery_events", Self.pushDeliveries),
        ("/api/v3/geofence/report", Self.geofenceReport),
      ]
    for (path, body) in all {
      let reply = try httpRequest(port: server.port, path: path, body: body)
      XCTAssertEqual(reply?.status, 200, path)
    }
    let records = collector.waitForRecords(all.count)
    XCTAssertEqual(
      records.map(\.name), Self.ownRequests.map(\.name) + ["push_delivery", "geofence"])
    XCTAssertEqual(server.statistics.rejected.values.reduce(0, +), 0)
    try await server.shutdown()
  }
}
