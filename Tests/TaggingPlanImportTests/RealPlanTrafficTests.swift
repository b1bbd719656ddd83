import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// Real public plans (mParticle's smartype examples, Amplitude's Ampli example plan; sources in
/// Fixtures/README.md) import one entry per event, load, and judge a conforming and a broken
/// message of the tool's own wire shape — as `listen` records it (the SDK's message, the
/// properties at the catalogue's `propertiesAt`) and as an in-app call (the properties themselves).
final class RealPlanTrafficTests: XCTestCase {
  /// An in-app call: the parameters are the event's properties.
  private func inApp(
    _ seq: UInt64, _ provider: String, _ method: String, _ name: String, _ parameters: Properties
  )
    -> Record
  {
    var record = fromSDK(seq, provider, method, name, parameters)
    record.raw = nil
    return record
  }

  /// An mParticle Events API event (mparticle-python-sdk's `AppEvent` in a batch).
  private func customEvent(_ name: String, _ attributes: Properties) -> Properties {
    [
      "event_type": "custom_event",
      "data": [
        "event_name": .string(name), "custom_event_type": "other", "custom_attributes": .object(attributes),
      ],
    ]
  }

  func testSmartypesPlanImportsOneEntryPerDataPointAsListenNamesMParticlesEvents() throws {
    let plan = try importFixtures(["mparticle-real/freddy_s_plan-v1.json"])
    XCTAssertEqual(plan.name, "freddy_s_plan")
    XCTAssertEqual(plan.catalogue.propertiesAt, "data.custom_attributes")
    XCTAssertEqual(
      plan.catalogue.calls.map { "\($0.method ?? "-") \($0.key)" },
      ["logCommerceEvent purchase", "logScreen Home", "logEvent Choose Item", "logEvent Set Pickup"])
    XCTAssertEqual(plan.catalogue.methods.first?.key, "user_attribute_change", "its user attributes point")
    XCTAssertEqual(relativeWarnings(plan), [])
  }

  func testSmartypesPlanJudgesEventsAPIMessagesAndInAppCalls() throws {
    let plan = try importFixtures(["mparticle-real/freddy_s_plan-v1.json"])
    let good: Properties = ["quantity": 2, "milk": true, "item": "cortado"]
    let records = [
      fromSDK(1, "mparticle", "logEvent", "Choose Item", customEvent("Choose Item", good)),
      fromSDK(
        2, "mparticle", "logEvent", "Choose Item",
        customEvent("Choose Item", ["quantity": 2, "milk": true, "item": "latte"])),
      fromSDK(3, "mparticle", "logEvent", "Set Pickup", customEvent("Set Pickup", ["store": "s12345-6"])),
      fromSDK(4, "mparticle", "logEvent", "Set Pickup", customEvent("Set Pickup", ["store": "downtown"])),
      fromSDK(
        5, "mparticle", "logCommerceEvent", "purchase",
        ["event_type": "commerce_event", "data": ["product_action": ["action": "purchase"]]]),
      inApp(6, "mparticle", "logEvent", "Choose Item", good),
      inApp(7, "mparticle", "logEvent", "Choose Item", ["quantity": "two", "milk": true, "item": "cortado"]),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        #"2 invalid-value Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.item is "latte""#,
        #"4 invalid-value Set Pickup: mparticle logEvent Set Pickup parameter data.custom_attributes.store is "downtown""#,
        #"7 wrong-type Choose Item: mparticle logEvent Choose Item parameter quantity is a string ("two")"#,
      ])
  }

  /// Two data points told apart by `custom_event_type` alone: the catalogue keys calls by name,
  /// so the second is left out with a warning naming both places; the first still checks.
  func testSmartypesDuplicateEventNamesKeepTheFirstAndSaySo() throws {
    let plan = try importFixtures(["mparticle-real/test-duplicate-class-name.json"])
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Coupon Used"])
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        #"mparticle-real/test-duplicate-class-name.json:57:9: warning: a call named "Coupon Used" (version_document.data_points[1]) is already imported from mparticle-real/test-duplicate-class-name.json:12:9: this one is left out"#
      ])
    let records = [
      fromSDK(
        1, "mparticle", "logEvent", "Coupon Used", customEvent("Coupon Used", ["Coupon Type": "Discount"])),
      fromSDK(
        2, "mparticle", "logEvent", "Coupon Used",
        customEvent("Coupon Used", ["Coupon Type": "Discount", "test": "testval1"])),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        "2 unexpected-property Coupon Used: mparticle logEvent Coupon Used parameter data.custom_attributes.test is not planned"
      ])
  }

  func testAmplisSchemasImportOneEntryPerEvent() throws {
    let plan = try importFixtures(
      ["ampli-real/test-codegen-events.json"], options: ImportOptions(provider: "amplitude"))
    XCTAssertEqual(
      plan.catalogue.calls.map(\.key), ["EventMaxIntForTest", "Event With Enum Types", "Event No Properties"])
    XCTAssertEqual(plan.catalogue.propertiesAt, "event_properties")
    XCTAssertEqual(plan.catalogue.methods.map(\.key), ["identify"], "the Identify schema is identify's")
    XCTAssertEqual(plan.catalogue.methods.first?.propertiesAt, "user_properties.$set")
    XCTAssertEqual(importerWarnings(plan), [])
    XCTAssertEqual(plan.catalogue.calls.first?.params.first?.constraints.maximum, 10)
  }

  /// The real violation (a value above its `maximum`) is caught in the SDK's message and in the
  /// in-app call alike; a conforming message is not "missing" anything.
  func testAmplisSchemaJudgesHTTPAPIEventsAndInAppCalls() throws {
    let plan = try importFixtures(
      ["ampli-real/test-codegen-events.json"], options: ImportOptions(provider: "amplitude"))
    let event = { (name: String, properties: Properties) -> Properties in
      ["event_type": .string(name), "user_id": "user-42", "event_properties": .object(properties)]
    }
    let records = [
      fromSDK(1, "amplitude", "track", "EventMaxIntForTest", event("EventMaxIntForTest", ["intMax10": 9])),
      fromSDK(2, "amplitude", "track", "EventMaxIntForTest", event("EventMaxIntForTest", ["intMax10": 20])),
      fromSDK(
        3, "amplitude", "track", "Event With Enum Types",
        event("Event With Enum Types", ["optional enum": "optional enum 3"])),
      fromSDK(4, "amplitude", "track", "Event No Properties", event("Event No Properties", [:])),
      inApp(5, "amplitude", "track", "EventMaxIntForTest", ["intMax10": 9]),
      inApp(6, "amplitude", "track", "EventMaxIntForTest", ["intMax10": 20]),
      fromSDK(
        7, "amplitude", "identify", "identify",
        [
          "event_type": "$identify", "user_id": "user-42",
          "user_properties": ["$set": ["requiredNumber": 16.6]],
        ]),
      fromSDK(
        8, "amplitude", "identify", "identify",
        [
          "event_type": "$identify", "user_id": "user-42",
          "user_properties": ["$set": ["optionalArray": ["a"]]],
        ]),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        "2 invalid-value EventMaxIntForTest: amplitude track EventMaxIntForTest parameter event_properties.intMax10 is 20",
        #"3 invalid-value Event With Enum Types: amplitude track Event With Enum Types parameter event_properties["optional enum"] is "optional enum 3""#,
        #"3 missing-param Event With Enum Types: amplitude track Event With Enum Types parameter event_properties["required enum"] is missing"#,
        "6 invalid-value EventMaxIntForTest: amplitude track EventMaxIntForTest parameter intMax10 is 20",
        "8 missing-param identify: amplitude identify parameter user_properties.$set.requiredNumber is missing",
      ])
  }
}
