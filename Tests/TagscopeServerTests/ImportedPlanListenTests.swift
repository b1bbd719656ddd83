import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// Real tracking plans, imported, meet what the official Python SDKs send through a real `listen`:
/// `tagscope validate` of the recording flags exactly the broken events, at the path where the
/// SDK's message holds the properties (the catalogue's `propertiesAt`).
final class ImportedPlanListenTests: XCTestCase {
  /// A fixture of the import tests (real plans, their sources in that folder's README).
  private func importFixture(_ name: String, provider: String? = nil) throws -> Plan {
    let path = packageRoot.appendingPathComponent("Tests/TaggingPlanImportTests/Fixtures/\(name)").path
    let imported = try PlanImporter.run(paths: [path], options: ImportOptions(provider: provider))
    return try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml")
  }

  /// mParticle's smartype example plan (`freddy_s_plan`) and the mParticle Python SDK: a screen
  /// view, a purchase and a conforming "Choose Item" pass; the "Choose Item" with an item outside
  /// the enum and the one without `milk` are flagged, at `data.custom_attributes`.
  func testAnMParticleDataPlanJudgesWhatTheMParticleSDKSends() async throws {
    let plan = try importFixture("mparticle-real/freddy_s_plan-v1.json")
    let (records, violations) = try await listenAndValidate("mparticle_client", expecting: 5, plan: plan)
    XCTAssertEqual(
      records.map { "\($0.kind.rawValue) \($0.name)" },
      ["screen Home", "event Choose Item", "event purchase", "event Choose Item", "event Choose Item"])
    // Two devices (mp_deviceid), each its own source; the second's events carry no screen.
    XCTAssertEqual(Set(records.prefix(3).map(\.source)).count, 1)
    XCTAssertEqual(Set(records.map(\.source)).count, 2)
    XCTAssertEqual(records.map(\.context.screen), ["Home", "Home", "Home", nil, nil])
    XCTAssertEqual(records.first?.context.session?.user, "cust-42")
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" },
      [
        #"4 invalid-value Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.item is "latte""#,
        "5 missing-param Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.milk is missing",
      ])
  }

  /// The same plan and mParticle's iOS SDK upload (`Tests/Fixtures/mparticle-native`, gzip'd,
  /// signed, the API key in the path, every attribute as text): the conforming "Choose Item"
  /// passes, the one whose item is outside the enum is flagged, at `data.custom_attributes`.
  func testAnMParticleDataPlanJudgesWhatTheMobileSDKsUpload() async throws {
    let plan = try importFixture("mparticle-real/freddy_s_plan-v1.json")
    let batch = try Data(
      contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/mparticle-native/ios-batch.json"))
    let (records, violations) = try await listenAndValidate(expecting: 4, plan: plan) { port in
      let reply = try httpRequest(
        port: port, path: "/v2/us1-abc/events",
        headers: [
          "Content-Encoding: gzip", "x-mp-signature: 9c0e5b7d", "Date: Tue, 25 Nov 2025 23:20:00 GMT",
        ], body: gzip(Array(batch)))
      XCTAssertEqual(reply?.status, 202)
      XCTAssertEqual(reply?.body, #"{"dt":"rh"}"#)
    }
    XCTAssertEqual(
      records.map { "\($0.kind.rawValue) \($0.name)" },
      ["event session_start", "screen Home", "event Choose Item", "event Choose Item"])
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" },
      [
        // The batch's email identity (`ui`, type 7): personal data this plan does not plan.
        "1 personal-data session_start: mparticle batch parameter ui[1].i carries an email address "
          + "(outputs[0].batch.ui[1].i, value masked, 15 characters); mark the property pii: [email] where it is intended",
        #"4 invalid-value Choose Item on Home: mparticle logEvent Choose Item parameter data.custom_attributes.item is "latte""#,
      ])
  }

  /// The same plan and upload with the attributes changed: every value arrives as the text the
  /// SDK sent, and the plan (imported with `valuesAsText`) takes a number's text for its `number`
  /// (`"12.5"`) and keeps the enum's `"1"` text; `"abc"` for the number is flagged.
  func testAnMParticleDataPlanReadsTheMobileSDKsTextAsMParticleDoes() async throws {
    let plan = try importFixture("mparticle-real/freddy_s_plan-v1.json")
    XCTAssertTrue(plan.catalogues.first?.valuesAsText ?? false)
    let original = try String(
      contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/mparticle-native/ios-batch.json"),
      encoding: .utf8)
    let batch =
      original
      .replacingOccurrences(
        of: #"{"quantity":"2","milk":"true","item":"cortado"}"#,
        with: #"{"quantity":"12.5","milk":"true","item":"1"}"#
      )
      .replacingOccurrences(
        of: #"{"quantity":"1","milk":"false","item":"latte"}"#,
        with: #"{"quantity":"abc","milk":"false","item":"espresso"}"#)
    XCTAssertFalse(batch.contains("latte"))
    let (records, violations) = try await listenAndValidate(expecting: 4, plan: plan) { port in
      let reply = try httpRequest(
        port: port, path: "/v2/us1-abc/events", headers: ["Content-Encoding: gzip"],
        body: gzip(Array(batch.utf8)))
      XCTAssertEqual(reply?.status, 202)
    }
    XCTAssertEqual(records[2].properties, ["quantity": "12.5", "milk": "true", "item": "1"])
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" },
      [
        "1 personal-data session_start: mparticle batch parameter ui[1].i carries an email address "
          + "(outputs[0].batch.ui[1].i, value masked, 15 characters); mark the property pii: [email] where it is intended",
        #"4 wrong-type Choose Item on Home: mparticle logEvent Choose Item parameter data.custom_attributes.quantity is a string ("abc")"#,
      ])
  }

  /// mParticle's SDKs call IDSync before they upload: `listen` answers the identify (and the config
  /// request) so the SDK goes on, records it as an identify record with the user, and the
  /// imported plan knows it (no unplanned call).
  func testAnMParticleIdentifyThenUploadRecordsTheUser() async throws {
    let plan = try importFixture("mparticle-real/freddy_s_plan-v1.json")
    let batch = try Data(
      contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/mparticle-native/ios-batch.json"))
    // Fields as mParticle/mparticle-android-sdk MParticleIdentityClientImpl.java sends them.
    let identify = """
      {"client_sdk":{"platform":"android","sdk_vendor":"mparticle","sdk_version":"5.62.0"},
       "environment":"development","request_timestamp_ms":1764112700000,
       "request_id":"2E6C1B4A-0D3F-4E2A-9C8B-7F1A2B3C4D5E",
       "known_identities":{"android_uuid":"a1b2c3d4e5f60718",
         "device_application_stamp":"7A1E3C44-2B9D-4F6E-8C0A-55D1E2F3A4B6",
         "customerid":"cust-42","email":"ann@example.com"}}
      """
    var mpid = ""
    let (records, violations) = try await listenAndValidate(expecting: 5, plan: plan) { port in
      let config = try httpRequest(
        port: port, method: "GET", path: "/v4/us1-abc/config?av=1.0&sv=5.62.0", contentType: nil, body: "")
      XCTAssertEqual(config?.status, 200)
      XCTAssertEqual(config?.body, #"{"dt":"ac"}"#)
      let reply = try httpRequest(
        port: port, path: "/v1/identify", headers: ["x-mp-key: us1-abc", "Content-Encoding: gzip"],
        body: gzip(Array(identify.utf8)))
      XCTAssertEqual(reply?.status, 200, reply?.body ?? "")
      let answer = try XCTUnwrap(
        reply.flatMap { try? JSONParser.parse(Array($0.body.utf8)) }.map { Payload.object($0) })
      mpid = Payload.string(answer["mpid"]) ?? ""
      XCTAssertEqual(answer["is_logged_in"], true)
      XCTAssertEqual(answer["context"], "tagscope")
      let upload = try httpRequest(
        port: port, path: "/v2/us1-abc/events", headers: ["Content-Encoding: gzip"], body: gzip(Array(batch)))
      XCTAssertEqual(upload?.status, 202)
    }
    XCTAssertFalse(mpid.isEmpty)
    XCTAssertEqual(Int64(mpid).map { $0 > 0 }, true, mpid)
    XCTAssertEqual(
      records.map { "\($0.kind.rawValue) \($0.name)" },
      ["identify identify", "event session_start", "screen Home", "event Choose Item", "event Choose Item"])
    XCTAssertEqual(records[0].context.session?.user, "cust-42")
    XCTAssertEqual(records[0].properties["customerid"], "cust-42")
    // The identity request's email identity is personal data the imported plan does not allow,
    // and so is the same identity the upload's batch carries (`ui`).
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue)" },
      ["1 personal-data", "2 personal-data", "5 invalid-value"])
  }

  /// Strapi's tracking plan as Amplitude's code generator (Iteratively, Ampli's predecessor) wrote
  /// it, imported for Amplitude, and Amplitude HTTP API v2 messages: the `willCreateEntry` with
  /// `status: "draft"` and the identify pass; the `willEditEntry` whose status is outside the
  /// enum is flagged at `event_properties`.
  func testStrapisGeneratedSchemasJudgeAmplitudeHTTPAPIMessages() async throws {
    let plan = try importFixture("ampli-real/strapi-itly-schemas.json", provider: "amplitude")
    let body = """
      {"api_key": "amp-key", "events": [
        {"event_type": "$identify", "user_id": "user-1", "device_id": "device-1",
         "user_properties": {"$set": {"createdAt": "2021-03-01T10:00:00Z"}}},
        {"event_type": "willCreateEntry", "user_id": "user-1", "device_id": "device-1",
         "event_properties": {"status": "draft"}},
        {"event_type": "willEditEntry", "user_id": "user-1", "device_id": "device-1",
         "event_properties": {"status": "published"}}]}
      """
    let (records, violations) = try await listenAndValidate(expecting: 3, plan: plan) { port in
      let reply = try httpRequest(port: port, path: "/2/httpapi", body: body)
      XCTAssertEqual(reply?.status, 200, reply?.body ?? "")
    }
    XCTAssertEqual(records.map(\.name), ["identify", "willCreateEntry", "willEditEntry"])
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" },
      [
        #"3 invalid-value willEditEntry: amplitude track willEditEntry parameter event_properties.status is "published""#
      ])
  }

  /// Amplitude's Ampli example plan ("Test Codegen" schemas) and the Amplitude Python SDK: the
  /// real violation (`intMax10` above its maximum) is caught at `event_properties`, and the
  /// conforming events and identify (its Identify schema, at `user_properties.$set`) pass.
  func testAnAmpliSchemaJudgesWhatTheAmplitudeSDKSends() async throws {
    let plan = try importFixture("ampli-real/test-codegen-events.json", provider: "amplitude")
    let (records, violations) = try await listenAndValidate("amplitude_plan_client", expecting: 4, plan: plan)
    XCTAssertEqual(
      records.map(\.name), ["identify", "EventMaxIntForTest", "Event With Enum Types", "EventMaxIntForTest"])
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message)" },
      [
        "4 invalid-value EventMaxIntForTest: amplitude track EventMaxIntForTest parameter event_properties.intMax10 is 20, plan line 14 expects at most 10"
      ])
  }
}
