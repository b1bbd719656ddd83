import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// A closed catalogue entry (`additionalProperties: false`) judges what an SDK sent as it judges
/// the app's call: the properties the SDK adds itself (Mixpanel's `mp_lib`, `$lib_version`,
/// `time`, `distinct_id`; PostHog's `$lib`) are not unplanned parameters, unless the entry lists
/// them, and then they are checked like any other. The in-app call is judged as before.
final class CatalogueSDKPropertiesTests: XCTestCase {
  static let yaml = """
    plan: Podcasts
    catalogues:
      mixpanel:
        calls:
          Play Podcast:
            method: track
            params: {podcast_title: {type: string}}
            additionalProperties: false
      posthog:
        propertiesAt: properties
        calls:
          Play Podcast:
            method: capture
            params: {podcast_title: {type: string}, $lib: {type: string, enum: [posthog-ios]}}
            additionalProperties: false
    """

  /// What mixpanel-python's `track` sends (its message's properties, the token taken out as
  /// `listen` records it), with the app's `extra`.
  static let mixpanelSent: Properties = [
    "podcast_title": "Swift by Sundell", "distinct_id": "user-42", "time": 1_764_500_000,
    "$insert_id": "a1b2c3", "mp_lib": "python", "$lib_version": "4.10.1",
  ]

  private func check(_ provider: String, _ method: String, _ parameters: Properties, fromSDK: Bool)
    throws -> [String]
  {
    let plan = try PlanLoader.load(yaml: Self.yaml, file: "podcasts.yaml")
    var made = record(
      1, .event, "Play Podcast",
      outputs: [
        ProviderOutput(
          provider: provider, status: .sent,
          calls: [CallDescription(method: method, name: "Play Podcast", parameters: parameters)])
      ])
    if fromSDK { made.raw = "{}" }
    return validate([made], plan: plan).0.map {
      "\($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])"
    }
  }

  func testTheMixpanelSDKsOwnPropertiesAreNotUnplanned() throws {
    XCTAssertEqual(try check("mixpanel", "track", Self.mixpanelSent, fromSDK: true), [])
    // The app's own unplanned property still is, and so is every one of them in an in-app call.
    var extra = Self.mixpanelSent
    extra["episode"] = 12
    XCTAssertEqual(
      try check("mixpanel", "track", extra, fromSDK: true),
      ["unexpected-property Play Podcast: mixpanel track Play Podcast parameter episode is not planned"])
    XCTAssertEqual(
      try check("mixpanel", "track", Self.mixpanelSent, fromSDK: false).count, 5,
      "an in-app call carries what the app gave it: none of them is the SDK's")
  }

  func testAListedSDKPropertyIsCheckedAsPlanned() throws {
    let sent: Properties = [
      "event": "Play Podcast",
      "properties": ["podcast_title": "Swift by Sundell", "$lib": "posthog-python", "$lib_version": "6.7.0"],
    ]
    XCTAssertEqual(
      try check("posthog", "capture", sent, fromSDK: true),
      [
        #"invalid-value Play Podcast: posthog capture Play Podcast parameter properties.$lib is "posthog-python""#
      ])
  }
}
