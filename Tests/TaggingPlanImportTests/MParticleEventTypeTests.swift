import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// A data point's `criteria.custom_event_type` is checked: mParticle matches a custom event by
/// name and type, and the type was dropped ("Link Clicked" sent as `navigation` passed a plan
/// that defines it as `other`).
final class MParticleEventTypeTests: XCTestCase {
  /// An mParticle data plan of one custom event, "Link Clicked", of type `other`.
  private let linkClicked = """
    {"data_plan_id": "web", "version": 1, "version_document": {"data_points": [
      {"match": {"type": "custom_event", "criteria": {"event_name": "Link Clicked", "custom_event_type": "other"}},
       "validator": {"type": "json_schema", "definition": {"properties": {"data": {"properties": {
         "custom_attributes": {"properties": {"link_url": {"type": "string"}}}}}}}}}]}}
    """

  /// A custom event as mparticle-python-sdk 0.16.1 writes it (`AppEvent(name, type)` with custom
  /// attributes, serialized by `ApiClient.sanitize_for_serialization`); `type` `nil` leaves it out.
  private func appEvent(_ name: String, _ type: String?, _ attributes: Properties) -> Properties {
    var data: Properties = ["custom_attributes": .object(attributes), "event_name": .string(name)]
    if let type { data["custom_event_type"] = .string(type) }
    return ["data": .object(data), "event_type": "custom_event"]
  }

  /// The violations of mParticle events as `listen` records them (the event as received).
  private func judge(_ imported: ImportedPlan, _ events: [Properties]) throws -> [String] {
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml"))
    return events.enumerated().flatMap { index, event in
      let name = event["data"].flatMap { value -> String? in
        guard case .object(let data) = value, case .string(let name)? = data["event_name"] else { return nil }
        return name
      }
      let record = Record(
        seq: UInt64(index + 1), time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event,
        name: name ?? "?",
        outputs: [
          ProviderOutput(
            provider: "mparticle", status: .sent,
            calls: [CallDescription(method: "logEvent", name: name, parameters: event)])
        ], raw: "{}")
      return validator.validate(record).map {
        "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])"
      }
    }
  }

  func testAnEventOfAnotherTypeThanPlannedIsFlagged() throws {
    let plan = try importText(linkClicked, format: .mparticle)
    let entry = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(entry.messageParams.map(\.name), ["data"])
    let link: Properties = ["link_url": "https://example.com/menu"]
    XCTAssertEqual(
      try judge(
        plan,
        [
          appEvent("Link Clicked", "other", link), appEvent("Link Clicked", "navigation", link),
          appEvent("Link Clicked", nil, link),
        ]),
      [
        #"2 invalid-value Link Clicked: mparticle logEvent Link Clicked parameter data.custom_event_type is "navigation""#,
        "3 missing-param Link Clicked: mparticle logEvent Link Clicked parameter data.custom_event_type is missing",
      ])
  }

  /// A data point without a type takes any (nothing to check).
  func testADataPointWithoutATypeTakesAny() throws {
    let plan = try importText(
      linkClicked.replacingOccurrences(of: #", "custom_event_type": "other""#, with: ""), format: .mparticle)
    XCTAssertEqual(plan.catalogue.calls.first?.messageParams, [])
    XCTAssertEqual(
      try judge(plan, [appEvent("Link Clicked", "navigation", ["link_url": "https://example.com"])]), [])
  }

  /// smartype's two "Coupon Used" data points (transaction, other): the catalogue keeps the first
  /// entry, which takes both types (the second's attributes are left out, as the warning says);
  /// a third type is flagged.
  func testTwoDataPointsOfOneNameTakeBothTypes() throws {
    let plan = try importFixtures(["mparticle-real/test-duplicate-class-name.json"])
    let coupon = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(
      coupon.notes,
      [
        "custom_event_type other too: the data point version_document.data_points[1] of the same name, whose attributes are left out"
      ])
    let attributes: Properties = ["Coupon Type": "Discount"]
    XCTAssertEqual(
      try judge(
        plan,
        [
          appEvent("Coupon Used", "transaction", attributes), appEvent("Coupon Used", "other", attributes),
          appEvent("Coupon Used", "navigation", attributes),
        ]),
      [
        #"3 invalid-value Coupon Used: mparticle logEvent Coupon Used parameter data.custom_event_type is "navigation""#
      ])
  }
}
