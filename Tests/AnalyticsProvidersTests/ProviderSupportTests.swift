import AnalyticsHub
import AnalyticsHubTesting
import AnalyticsProviders
import Foundation
import PodcastDemo
import XCTest

final class ProviderSupportTests: XCTestCase {
  func testGenericCheckKnowsEveryProviderAndItsAliases() {
    XCTAssertEqual(
      ProviderRules.knownProviders,
      ["firebase", "amplitude", "segment", "piano", "braze", "adobe", "batch", "mixpanel", "fpti"])
    let long = CallDescription(method: "logEvent", name: String(repeating: "x", count: 41))
    for provider in ["firebase", "GA4", "google-analytics"] {
      XCTAssertEqual(ProviderRules.check(provider: provider, calls: [long]).map(\.errorCode), [2], provider)
    }
    XCTAssertEqual(
      ProviderRules.check(provider: "posthog", calls: [long]), [], "unknown provider has no rules")
    XCTAssertEqual(
      ProviderRules.check(provider: "firebase", calls: [CallDescription(method: "unknownMethod")]), [])
  }

  func testEnvironmentSwitchDisablesAProvider() throws {
    let production = EnvironmentSwitch(enabledIn: [.production], environment: .debug)
    XCTAssertFalse(production.isEnabled)
    XCTAssertTrue(EnvironmentSwitch(enabledIn: [.debug, .staging], environment: .staging).isEnabled)
    XCTAssertTrue(EnvironmentSwitch(environment: .debug).isEnabled)
    let adapter = TestAdapter<FirebaseCall>()
    let provider: Provider<PodcastTaxonomy> = Firebase.provider(environment: production, adapter: adapter) {
      _, _ in
      [.logEvent("anything", [:])]
    }
    let hub = try AnalyticsHub(providers: [provider])
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(hub.isEnabled(Firebase.id), false)
    XCTAssertEqual(recorder.last?.outcome(for: Firebase.id)?.status, .blocked(.disabled))
    XCTAssertEqual(adapter.calls, [])
  }

  func testConsentCategoryDefaults() {
    let noop: Mapping<PodcastTaxonomy, BrazeCall> = { _, _ in [] }
    XCTAssertEqual(
      Braze.provider(adapter: DiscardingAdapter<BrazeCall>(), mapping: noop).category, .marketing)
    let batchNoop: Mapping<PodcastTaxonomy, BatchCall> = { _, _ in [] }
    XCTAssertEqual(
      Batch.provider(adapter: DiscardingAdapter<BatchCall>(), mapping: batchNoop).category, .marketing)
    let firebaseNoop: Mapping<PodcastTaxonomy, FirebaseCall> = { _, _ in [] }
    XCTAssertEqual(
      Firebase.provider(adapter: DiscardingAdapter<FirebaseCall>(), mapping: firebaseNoop).category,
      .analytics)
  }

  func testRulesAreSkippedWhenTheHubDoesNotCheckThem() throws {
    let provider: Provider<PodcastTaxonomy> = Firebase.provider(adapter: DiscardingAdapter<FirebaseCall>()) {
      _, _ in
      [.logEvent("session_start", [:])]
    }
    let hub = try AnalyticsHub(
      configuration: HubConfiguration(checksProviderRules: false), providers: [provider])
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: Firebase.id)?.violations, [])
  }

  func testTagNaming() {
    XCTAssertEqual(
      TagNaming.snakeCase("notEnoughStorageSpaceForDownload"), "not_enough_storage_space_for_download")
    XCTAssertEqual(TagNaming.snakeCase("podcastPlayer"), "podcast_player")
    XCTAssertEqual(TagNaming.snakeCase("voice over"), "voice_over")
    XCTAssertEqual(TagNaming.upperSnakeCase("onboarding"), "ONBOARDING")
    XCTAssertEqual(TagNaming.titleCase("playPodcast"), "Play Podcast")
  }

  func testTimedEquivalents() {
    let stop: Tag<PodcastTaxonomy> = .timedStop(.onboarding, duration: 1.23456)
    XCTAssertEqual(
      stop.timedEquivalent(),
      TimedEventEquivalent(
        name: "onboarding_stop", phase: .stop, properties: ["duration": 1.235], duration: 1.23456))
    XCTAssertEqual(
      Tag<PodcastTaxonomy>.timedStart(.onboarding).timedEquivalent(naming: .upperSnakeCase)?.name,
      "ONBOARDING_START")
    XCTAssertEqual(
      Tag<PodcastTaxonomy>.timedCancel(.onboarding, duration: 2).timedEquivalent(naming: .titleCase)?.name,
      "Onboarding Cancelled")
    XCTAssertNil(Tag<PodcastTaxonomy>.screen(.podcasts).timedEquivalent())
    XCTAssertEqual(
      Mixpanel.timedEvent(Tag<PodcastTaxonomy>.timedCancel(.onboarding, duration: 2)),
      [.clearTimedEvent("Onboarding")])
    XCTAssertEqual(
      Batch.timedEvent(Tag<PodcastTaxonomy>.timedStart(.onboarding)).first?.name, "onboarding_start")
  }

  func testSessionBridge() {
    let session = Session(
      id: "s-1", user: AnalyticsUser(id: "u-42"), properties: ["voiceOver": true],
      startedAt: Date(timeIntervalSince1970: 0))
    XCTAssertEqual(
      SessionBridge.properties(of: session), ["session_state": "authenticated", "voiceOver": true])
    XCTAssertEqual(SessionBridge.properties(of: nil), [:])
    XCTAssertEqual(
      SessionBridge.merging(["voiceOver": false, "title": "x"], with: session),
      ["session_state": "authenticated", "voiceOver": false, "title": "x"])
  }

  func testFoundationBridgeForObjectiveCSDKs() {
    let properties: Properties = [
      "title": "Radiolab", "duration": 3300, "ratio": 0.5, "on": true, "gone": nil,
    ]
    let dictionary = properties.foundationDictionary
    XCTAssertEqual(dictionary.keys.sorted(), ["duration", "on", "ratio", "title"])
    XCTAssertEqual(dictionary["title"], NSString(string: "Radiolab"))
    XCTAssertEqual(dictionary["duration"], NSNumber(value: 3300))
    let items: Properties = ["items": [["item_id": "p1"], ["item_id": "p2"]]]
    let expected = NSArray(array: [
      NSDictionary(dictionary: ["item_id": NSString(string: "p1")]),
      NSDictionary(dictionary: ["item_id": NSString(string: "p2")]),
    ])
    XCTAssertEqual(items.foundationDictionary["items"], expected)
    XCTAssertEqual(PropertyValue.bool(true).sdkString, "true")
    XCTAssertNil(PropertyValue.null.sdkString)
  }

  func testSDKAdapterProtocolDeliversEachCallToTheMirroringMethod() {
    let sdk = RecordingFirebase()
    let calls: [FirebaseCall] = [
      .logEvent("play", ["a": 1]), .setUserProperty("v", forName: "p"), .setUserID("u"),
      .setDefaultEventParameters([:]),
      .setAnalyticsCollectionEnabled(false), .setConsent(FirebaseConsent(adStorage: .denied)),
      .resetAnalyticsData,
    ]
    for call in calls { sdk.deliver(call) }
    XCTAssertEqual(
      sdk.log,
      [
        "logEvent play", "setUserProperty p=v", "setUserID u", "setDefaultEventParameters 0",
        "setAnalyticsCollectionEnabled false",
        "setConsent [ad_storage: denied]", "resetAnalyticsData",
      ])
  }
}

final class RecordingFirebase: FirebaseAnalyticsAdapter, @unchecked Sendable {
  var log: [String] = []
  func logEvent(_ name: String, parameters: Properties) { log.append("logEvent \(name)") }
  func setUserProperty(_ value: String?, forName name: String) {
    log.append("setUserProperty \(name)=\(value ?? "nil")")
  }
  func setUserID(_ id: String?) { log.append("setUserID \(id ?? "nil")") }
  func setDefaultEventParameters(_ parameters: Properties) {
    log.append("setDefaultEventParameters \(parameters.count)")
  }
  func setAnalyticsCollectionEnabled(_ enabled: Bool) {
    log.append("setAnalyticsCollectionEnabled \(enabled)")
  }
  func setConsent(_ consent: FirebaseConsent) { log.append("setConsent \(consent.properties)") }
  func resetAnalyticsData() { log.append("resetAnalyticsData") }
}

final class RuleCatalogueTests: XCTestCase {
  func testCatalogueIdentifiersAreUniqueAndBelongToKnownProviders() {
    let ids = ProviderRules.catalogue.map(\.id)
    XCTAssertEqual(ids.count, Set(ids).count)
    XCTAssertEqual(ids.count, 58)
    for description in ProviderRules.catalogue {
      XCTAssertTrue(ProviderRules.knownProviders.contains(description.provider), description.id)
      XCTAssertFalse(description.source.isEmpty, description.id)
      XCTAssertEqual(
        description.confirmed, description.note == nil, "unconfirmed rules say why: \(description.id)")
    }
  }

  func testFirebaseCodesInTheCatalogue() {
    XCTAssertEqual(ProviderRules.describe("firebase.parameter-value-length")?.errorCode, 4)
    XCTAssertNil(ProviderRules.describe("firebase.nonexistent"))
  }
}

final class ProviderRuleStreamTests: XCTestCase {
  func testStreamCountsFirebaseUserPropertiesAcrossRecords() {
    var stream = ProviderRuleStream()
    for index in 0..<25 {
      let call = CallDescription(method: "setUserProperty", name: "prop_\(index)", parameters: ["value": "x"])
      XCTAssertEqual(stream.check(provider: "firebase", calls: [call]), [])
    }
    let outcome = ProviderOutcome(
      provider: "firebase", status: .sent,
      calls: [CallDescription(method: "setUserProperty", name: "prop_25", parameters: ["value": "x"])])
    XCTAssertEqual(stream.check(outcome).map(\.errorCode), [9])
    XCTAssertEqual(
      ProviderRules.check(provider: "firebase", calls: outcome.calls), [], "a one-off check has no history")
  }

  func testStreamChecksOtherProvidersStatelessly() {
    var stream = ProviderRuleStream()
    let call = CallDescription(method: "logCustomEvent", name: "played", parameters: ["$bad": 1])
    XCTAssertEqual(stream.check(provider: "braze", calls: [call]).map(\.rule), ["braze.key-dollar"])
    XCTAssertEqual(stream.check(provider: "unknown", calls: [call]), [])
  }
}
