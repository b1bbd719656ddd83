import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import XCTest

/// mParticle data points of the types a plan used to report as "not imported" (issue 44): a
/// `user_attributes` point checks each user attribute change `listen` records (its name planned,
/// its new value as the point's schema says); `promotion_action` and `product_impression` points
/// are entries named as `listen` names those commerce events (mParticle's match keys).
final class MParticleDataPointTypesTests: XCTestCase {
  /// A user attribute change as `listen` records it: the Events API's `user_attribute_change`
  /// event (`data.user_attribute_name`, `new`; the mobile SDKs' `uac` renamed so, values as text).
  private func change(_ seq: UInt64, _ name: String, _ value: PropertyValue) -> Record {
    let data: Properties = ["user_attribute_name": .string(name), "new": value, "is_new_attribute": true]
    return fromSDK(
      seq, "mparticle", "user_attribute_change", "identify",
      ["event_type": "user_attribute_change", "data": .object(data)])
  }

  /// smartype's freddy plan: its user attributes point (`additionalProperties: false`, `$Age` a
  /// number) is the `user_attribute_change` entry; a mobile SDK's `"45"` meets `$Age`, `"old"` and
  /// an attribute not planned do not; a deleted attribute's `null` passes.
  func testAUserAttributesDataPointChecksEachAttributeChange() throws {
    let plan = try importFixtures(["mparticle-real/freddy_s_plan-v1.json"])
    XCTAssertEqual(relativeWarnings(plan), [])
    let entry = try XCTUnwrap(plan.catalogue.methods.first { $0.key == "user_attribute_change" })
    XCTAssertEqual(entry.propertiesAt, "data")
    XCTAssertEqual(entry.origin?.summary, "user_attributes")
    let records = [
      change(1, "$Age", "45"), change(2, "$Age", 45), change(3, "$Age", "old"), change(4, "nickname", "Bo"),
      change(5, "$FirstName", "Ann"), change(6, "$FirstName", .null), change(7, "$FirstName", 3),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        #"3 invalid-value identify: mparticle user_attribute_change identify parameter data has new, which is a string ("old")"#,
        #"4 invalid-value identify: mparticle user_attribute_change identify parameter data.user_attribute_name is "nickname""#,
        "7 wrong-type identify: mparticle user_attribute_change identify parameter data has new, which is an integer (3)",
      ])
  }

  /// Promotion and impression data points (the Events API schema's `PromotionAction`,
  /// `ProductImpression`) import under the names `listen` gives those commerce events.
  func testPromotionAndImpressionDataPointsAreEntries() throws {
    let text = """
      {"data_points": [
        {"match": {"type": "promotion_action", "criteria": {"action": "click"}},
         "validator": {"type": "json_schema", "definition": {"properties": {"data": {"properties": {
           "custom_attributes": {"properties": {"slot": {"type": "string"}}, "required": ["slot"]}}}}}}},
        {"match": {"type": "product_impression", "criteria": {}}},
        {"match": {"type": "product_action", "criteria": {"action": "click"}}}]}
      """
    let plan = try importText(text, format: .mparticle)
    XCTAssertEqual(relativeWarnings(plan), [])
    XCTAssertEqual(
      plan.catalogue.calls.map { "\($0.method ?? "-") \($0.key)" },
      [
        "logCommerceEvent promotion_action:click", "logCommerceEvent product_impression",
        "logCommerceEvent click",
      ])
    let promotion: Properties = [
      "event_type": "commerce_event",
      "data": [
        "promotion_action": ["action": "click", "promotions": [["id": "p1"]]], "custom_attributes": [:],
      ],
    ]
    let records = [
      fromSDK(1, "mparticle", "logCommerceEvent", "promotion_action:click", promotion)
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        "1 missing-param promotion_action:click: mparticle logCommerceEvent promotion_action:click parameter data.custom_attributes.slot is missing"
      ])
  }
}
