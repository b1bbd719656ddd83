import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// mParticle's iOS and Android SDKs' promotion and impression commerce events (issue 44: their
/// `pm` and `pi` were reported, and the event named `commerce_event`, so an imported data plan's
/// promotion or impression entry never judged it). The messages are shaped as Android's
/// `MPCommerceMessage.java` `addCommerceEventInfo` and `getPromotionJson` (mParticle/
/// mparticle-android-sdk @ eb2b4c8) and iOS's `MPCommerceEvent.m` `dictionaryRepresentation`
/// (mParticle/mparticle-apple-sdk @ 86fa647) write them: a promotion action `pm` (`an`, promotions
/// `pl` of `id`, `nm`, `cr`, `ps`), impressions `pi` (each `pil` and its products `pl`), the
/// currency `cu` and the non-interaction flag `ni`.
final class MParticleMobileCommerceTests: XCTestCase {
  /// A batch of a promotion click with a slot, one without, and an impression list.
  private static let body =
    #"{"dt":"h","id":"b","ct":1764112800000,"mpid":1,"msgs":["#
    + #"{"dt":"cm","ct":1764112798000,"attrs":{"slot":"top"},"sn":"Home","#
    + #""pm":{"an":"click","pl":[{"id":"SUMMER","nm":"Summer sale","cr":"banner-2","ps":"top"}]}},"#
    + #"{"dt":"cm","ct":1764112798500,"attrs":{},"pm":{"an":"view","pl":[{"id":"SUMMER"}]}},"#
    + #"{"dt":"cm","ct":1764112799000,"attrs":{"page":"cart"},"cu":"EUR","ni":true,"#
    + #""pi":[{"pil":"Suggested","pl":[{"nm":"Mug","id":"sku-1","pr":9.5,"qt":1,"act":1764112790000,"#
    + #""attrs":{"color":"red"}}]}]}]}"#

  /// Each key is carried under the Events API's name (`PromotionAction`, `Promotion`,
  /// `ProductImpression`, `Product`), none reported, and each event is named as mParticle's
  /// match keys name it (`promotion_action:click`, `product_impression`).
  func testPromotionsAndImpressionsAreCarriedAndNamedAsTheDataPlanNamesThem() throws {
    let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: Self.body)).events
    XCTAssertEqual(
      events.map(\.name), ["promotion_action:click", "promotion_action:view", "product_impression"])
    XCTAssertEqual(events.flatMap { Payload.object($0.annotations["unread"]).keys }, [])
    let click = Payload.object(events[0].call.parameters["data"])
    XCTAssertEqual(
      click["promotion_action"],
      .object([
        "action": "click",
        "promotions": .array([
          .object(["id": "SUMMER", "name": "Summer sale", "creative": "banner-2", "position": "top"])
        ]),
      ]))
    let impression = Payload.object(events[2].call.parameters["data"])
    XCTAssertEqual(impression["currency_code"], "EUR")
    XCTAssertEqual(impression["is_non_interactive"], true)
    let list = Payload.object(Payload.array(impression["product_impressions"])?.first)
    XCTAssertEqual(list["product_impression_list"], "Suggested")
    XCTAssertEqual(
      Payload.array(list["products"]),
      [
        .object([
          "name": "Mug", "id": "sku-1", "price": 9.5, "quantity": 1,
          "added_to_cart_time_ms": .int(1_764_112_790_000),
          "custom_attributes": .object(["color": "red"]),
        ])
      ])
  }

  /// An imported data plan's promotion and impression entries judge the mobile events: the
  /// click without its slot and the impression from a page not planned are flagged, nothing else.
  func testAnImportedDataPlanJudgesMobilePromotionsAndImpressions() throws {
    let text = """
      {"data_points": [
        {"match": {"type": "promotion_action", "criteria": {"action": "click"}},
         "validator": {"type": "json_schema", "definition": {"properties": {"data": {"properties": {
           "custom_attributes": {"properties": {"slot": {"type": "string"}}, "required": ["slot"]}}}}}}},
        {"match": {"type": "promotion_action", "criteria": {"action": "view"}},
         "validator": {"type": "json_schema", "definition": {"properties": {"data": {"properties": {
           "custom_attributes": {"properties": {"slot": {"type": "string"}}, "required": ["slot"]}}}}}}},
        {"match": {"type": "product_impression", "criteria": {}},
         "validator": {"type": "json_schema", "definition": {"properties": {"data": {"properties": {
           "custom_attributes": {"properties": {"page": {"enum": ["home", "search"]}}}}}}}}}]}
      """
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("w16D-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("plan.json")
    try Data(text.utf8).write(to: path)
    let imported = try PlanImporter.run(paths: [path.path], options: ImportOptions())
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml"))
    let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: Self.body)).events
    let violations = events.enumerated().flatMap { index, event in
      validator.validate(
        RecordMaker.record(
          event, seq: UInt64(index + 1), source: "device", context: RecordContext(), received: Date()))
    }
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" },
      [
        "2 missing-param promotion_action:view: mparticle logCommerceEvent promotion_action:view parameter data.custom_attributes.slot is missing",
        #"3 invalid-value product_impression: mparticle logCommerceEvent product_impression parameter data.custom_attributes.page is "cart""#,
      ])
  }
}
