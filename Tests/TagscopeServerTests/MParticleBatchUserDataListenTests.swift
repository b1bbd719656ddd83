import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A batch's own user attributes and identities, as mParticle's SDKs send them, judged by real
/// imported data plans through a real `listen` and `tagscope validate` (issue 44: only each
/// `user_attribute_change` message and IDSync call was judged; a batch whose attributes broke the
/// plan passed). The plan: mParticle's smartype example plan (`freddy_s_plan`: its closed
/// `user_attributes`) and Beasley's identities (`customerid` a pattern, `email` an email); the
/// fixtures' sources are in `Tests/TaggingPlanImportTests/Fixtures/README.md`.
final class MParticleBatchUserDataListenTests: XCTestCase {
  /// Both plans imported as one.
  private func plan() throws -> Plan {
    let fixtures = packageRoot.appendingPathComponent("Tests/TaggingPlanImportTests/Fixtures/mparticle-real")
    let imported = try PlanImporter.run(
      paths: ["freddy_s_plan-v1.json", "beasley-identities.json"].map {
        fixtures.appendingPathComponent($0).path
      },
      options: ImportOptions())
    return try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml")
  }

  /// What each violation says, without its plan line.
  private func described(_ violations: [PlanViolation]) -> [String] {
    violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" }
  }

  /// mParticle's Python SDK (`scripts/sdk-clients/mparticle_user_client.py`): three batches of
  /// conforming events; the second batch's wrong-typed `$Age`, unplanned `nickname` and customer
  /// id outside its pattern, and the third's email that is none, are flagged once each, on the
  /// first record of their batch, at the batch's own keys. A fourth batch, without events, is
  /// one `identify` record of its own, its text `$Age` flagged the same way (it was dropped
  /// without a word: nothing recorded, nothing judged).
  func testThePythonSDKsBatchAttributesAndIdentitiesAreJudgedOncePerBatch() async throws {
    let (records, violations) = try await listenAndValidate(
      "mparticle_user_client", expecting: 7, plan: try plan())
    XCTAssertEqual(
      records.map { "\($0.kind.rawValue) \($0.name)" },
      ["screen Home"] + Array(repeating: "event Choose Item", count: 5) + ["identify identify"])
    let batch = "mparticle batch (its own fields, kept on this record) parameter"
    XCTAssertEqual(
      described(violations),
      [
        #"4 invalid-value Choose Item: \#(batch) user_attributes.$Age is a string ("thirty")"#,
        "4 unexpected-property Choose Item: \(batch) user_attributes.nickname is not planned",
        #"4 invalid-value Choose Item: \#(batch) user_identities.customerid is "cust 43""#,
        #"6 invalid-value Choose Item: \#(batch) user_identities.email is "not an email""#,
        #"7 invalid-value identify: \#(batch) user_attributes.$Age is a string ("forty")"#,
      ])
  }

  /// mParticle's iOS SDK upload (`Tests/Fixtures/mparticle-native/ios-batch.json`, its events made
  /// conforming) with planted mistakes in its `ua` (an `$Age` whose text is no number, an
  /// attribute not planned) and `ui` (a customer id outside its pattern): each flagged once, on
  /// the batch's first record, at `ua.<name>` and `ui[i]`; the `$FirstName` text and the email pass.
  func testAMobileSDKsUaAndUiAreJudgedOncePerBatch() async throws {
    let fixture = try String(
      contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/mparticle-native/ios-batch.json"),
      encoding: .utf8)
    let body =
      fixture
      .replacingOccurrences(
        of: #""ua":{"$FirstName":"Ann","favorite_store":"s12345-1"}"#,
        with: #""ua":{"$FirstName":"Ann","$Age":"forty","nickname":"Annie","favorite_store":"s12345-1"}"#
      )
      .replacingOccurrences(of: #""item":"latte""#, with: #""item":"cortado""#)
    XCTAssertTrue(body.contains("nickname"))
    XCTAssertFalse(body.contains("latte"))
    let (records, violations) = try await listenAndValidate(expecting: 4, plan: try plan()) { port in
      let reply = try httpRequest(
        port: port, path: "/v2/us1-abc/events", headers: ["Content-Encoding: gzip"],
        body: gzip(Array(body.utf8)))
      XCTAssertEqual(reply?.status, 202)
    }
    XCTAssertEqual(records.count, 4)
    let batch = "mparticle batch (its own fields, kept on this record) parameter"
    XCTAssertEqual(
      described(violations),
      [
        #"1 invalid-value session_start: \#(batch) ua.$Age is a string ("forty")"#,
        "1 unexpected-property session_start: \(batch) ua.nickname is not planned",
        #"1 invalid-value session_start: \#(batch) ui[0] has i, which is "cust-42""#,
      ])
  }
}
