import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Braze's content requests (`/api/v3/content_cards/sync`, `/api/v3/feature_flags/sync`,
/// `/api/v3/template`), which `listen` answered `404` and the proxy forwarded unrecorded: each is
/// now one record of the SDK asking (its identity read as on `/api/v3/data`, every field carried
/// or reported), not judged as a tag, answered as Braze's SDKs decode it.
final class BrazeContentRequestTests: XCTestCase {
  /// braze-inc/braze-roku-sdk `BrazeSDK.brs` @ 0d97001684dab47d28580ea61fdd1076e9c6bac8
  /// `generateRequiredRequestFields` (`AppDataProvider`, `time`, `device_id`, `user_id`).
  static let rokuFields =
    #""sdk_version":"2.2.0","api_key":"k-roku","app_version_code":"1.0.0","app_version":"1.0","#
    + #""time":1700000000,"device_id":"d-roku","user_id":"u-1""#
  /// `requestFeatureFlags`: the required fields alone.
  static let featureFlags = "{\(rokuFields)}"
  /// `requestTemplate`: `template` and `respond_with` (`createConfigObject`) beside them.
  static let template =
    #"{"template":{"trigger_id":"t-1","trigger_event_type":"custom_event","data":{"n":"play"}},"#
    + #""respond_with":{"user_id":"u-1","config":{"config_time":1699990000},"triggers":false},"#
    + rokuFields + "}"
  /// The Web SDK 3.5.1's content card sync as captured (a k6 script in a public repository, code
  /// index id 29891413485; the Android SDK's `com.braze.requests.e` adds the same watermarks).
  static let contentCards =
    #"{"device":{"browser":"Firefox","browser_version":"98.0","os_version":"Windows","#
    + #""resolution":"1920x1080","locale":"en-us","time_zone":"Europe/Moscow","user_agent":"Mozilla/5.0"},"#
    + #""api_key":"k-web","time":1700000100,"sdk_version":"3.5.1","device_id":"f196649c","#
    + #""sdk_metadata":["wcd"],"last_full_sync_at":1699000000,"last_card_updated_at":1699000500,"user_id":"u-2"}"#

  func testEachContentRequestIsOneRecordOfTheSDKAskingAnsweredAsBraze() throws {
    let flags = try XCTUnwrap(endpointReply("/api/v3/feature_flags/sync", body: Self.featureFlags))
    XCTAssertEqual(flags.status, .ok)
    XCTAssertEqual(flags.body, #"{"message":"success","feature_flags":[]}"#)
    let flag = try XCTUnwrap(flags.events.first)
    XCTAssertEqual(flags.events.count, 1)
    XCTAssertEqual(flag.provider, "braze")
    XCTAssertEqual(flag.kind, .identify, "not a tag a plan judges")
    XCTAssertEqual(flag.name, "feature_flags_sync")
    XCTAssertEqual(flag.call, CallDescription(method: "refreshFeatureFlags", name: nil, parameters: [:]))
    XCTAssertEqual(flag.identity.deviceID, "d-roku")
    XCTAssertEqual(flag.identity.userID, "u-1")
    XCTAssertEqual(flag.time?.timeIntervalSince1970, 1_700_000_000)
    XCTAssertEqual(flag.credentials, ["api_key": "k-roku"])
    XCTAssertEqual(
      Payload.object(flag.annotations["request"]).keys,
      ["sdk_version", "api_key", "app_version_code", "app_version", "time", "device_id", "user_id"])
    XCTAssertTrue(flag.violations.isEmpty)

    let templated = try XCTUnwrap(endpointReply("/api/v3/template", body: Self.template))
    XCTAssertEqual(templated.body, #"{"message":"success"}"#)
    let asked = try XCTUnwrap(templated.events.first)
    XCTAssertEqual(asked.call.method, "requestTemplate")
    XCTAssertEqual(
      Payload.object(asked.call.parameters["template"])["trigger_id"], "t-1", "what it asks for, as sent")
    XCTAssertNotNil(Payload.object(asked.annotations["request"])["respond_with"])

    let cards = try XCTUnwrap(endpointReply("/api/v3/content_cards/sync/", body: Self.contentCards))
    XCTAssertEqual(
      cards.body,
      #"{"message":"success","full_sync":true,"last_full_sync_at":1699000000,"#
        + #""last_card_updated_at":1699000500,"cards":[]}"#)
    let sync = try XCTUnwrap(cards.events.first)
    XCTAssertEqual(sync.name, "content_cards_sync")
    XCTAssertEqual(sync.call.method, "requestContentCardsRefresh")
    XCTAssertEqual(
      sync.call.parameters,
      ["last_full_sync_at": .int(1_699_000_000), "last_card_updated_at": .int(1_699_000_500)])
    XCTAssertEqual(sync.identity.deviceID, "f196649c")
    XCTAssertEqual(sync.identity.userID, "u-2")
    XCTAssertNil(sync.annotations["unread"], "every field known")
  }

  /// A sync mark that is not a number, or none, is answered as `0` (a full sync), never `null`.
  func testContentCardsMarksThatAreNotNumbersAreAnsweredAsZero() throws {
    let body = #"{"api_key":"k","device_id":"d-1","last_full_sync_at":"soon"}"#
    let cards = try XCTUnwrap(endpointReply("/api/v3/content_cards/sync/", body: body))
    XCTAssertEqual(
      cards.body,
      #"{"message":"success","full_sync":true,"last_full_sync_at":0,"last_card_updated_at":0,"cards":[]}"#)
  }

  /// A field Tagscope does not know is kept with its place and reported; a body that is not
  /// Braze's is refused, each request on its own.
  func testUnknownFieldsAreReportedAndBadBodiesRefused() throws {
    let odd = #"{"api_key":"k","device_id":"d","surprise":{"x":1},"events":[]}"#
    let event = try XCTUnwrap(endpointReply("/api/v3/feature_flags/sync", body: odd)?.events.first)
    XCTAssertEqual(FieldAccount.places(in: event.annotations), ["request.surprise", "request.events"])
    XCTAssertEqual(event.violations.map(\.rule), [FieldAccount.rule])
    for (body, reason) in [
      ("{", RejectionReason.malformedJSON), ("[]", .malformedJSON), ("{}", .invalidPayload),
    ] {
      let reply = try XCTUnwrap(endpointReply("/api/v3/content_cards/sync", body: body))
      XCTAssertEqual(reply.status, .badRequest, body)
      XCTAssertEqual(reply.rejection, reason, body)
      XCTAssertEqual(reply.events.count, 0)
    }
  }

  /// A plan that lists no Braze content request does not call them unplanned tags.
  func testAPlanDoesNotJudgeThemAsTags() throws {
    let plan = try PlanLoader.load(
      yaml: "plan: P\nevents:\n  play: {}\n", file: "p.yaml")
    var validator = PlanValidator(plan: plan)
    var devices = DeviceRegistry(limit: 8)
    for (path, body) in [
      ("/api/v3/feature_flags/sync", Self.featureFlags), ("/api/v3/template", Self.template),
      ("/api/v3/content_cards/sync", Self.contentCards),
    ] {
      let event = try XCTUnwrap(endpointReply(path, body: body)?.events.first)
      let placement = devices.place(event, address: "127.0.0.1")
      let record = RecordMaker.record(
        event, seq: 1, source: placement.source, context: placement.context, received: Date())
      XCTAssertEqual(validator.validate(record).map(\.rule), [], path)
    }
  }

  /// Through a real `listen`: answered as Braze, one record each.
  func testListenRecordsAndAnswersThem() async throws {
    let (server, collector) = try await startServer()
    let flags = try httpRequest(
      port: server.port, path: "/api/v3/feature_flags/sync", body: Self.featureFlags)
    XCTAssertEqual(flags?.status, 200)
    XCTAssertEqual(flags?.body, #"{"message":"success","feature_flags":[]}"#)
    let cards = try httpRequest(
      port: server.port, path: "/api/v3/content_cards/sync", body: Self.contentCards)
    XCTAssertEqual(cards?.status, 200)
    XCTAssertTrue(cards?.body.hasSuffix(#""cards":[]}"#) ?? false, cards?.body ?? "")
    let template = try httpRequest(port: server.port, path: "/api/v3/template", body: Self.template)
    XCTAssertEqual(template?.status, 200)
    let records = collector.waitForRecords(3)
    XCTAssertEqual(records.map(\.name), ["feature_flags_sync", "content_cards_sync", "template"])
    XCTAssertEqual(
      records.compactMap { $0.outputs.first?.calls.first?.method },
      ["refreshFeatureFlags", "requestContentCardsRefresh", "requestTemplate"])
    XCTAssertEqual(records.map(\.kind), [.identify, .identify, .identify])
    XCTAssertEqual(server.statistics.rejected.values.reduce(0, +), 0)
    try await server.shutdown()
  }
}
