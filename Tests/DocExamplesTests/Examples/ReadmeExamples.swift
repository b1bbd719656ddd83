// swift-format-ignore-file
// The Swift blocks of the AnalyticsHub catalog's Getting started ("Adopt it in your app"), verbatim (DocExampleCoverageTests checks
// that they are), with what each needs around it; the tests below run them. Not formatted: a copy
// must keep the article's lines.

import AmplitudeProvider
import AnalyticsHub
import AnalyticsHubTesting
import AnalyticsProviders
import FirebaseProvider
import XCTest

// 1. The app's tags.

enum AppScreen: String, AnalyticsTag, Hashable {
  case podcasts, favorites
  var name: String { rawValue }
}

enum AppAction: AnalyticsTag {
  case playPodcast(title: String, duration: Int)
  var name: String { "playPodcast" }
  var properties: Properties {
    switch self {
    case .playPodcast(let title, let duration): ["podcast_title": .string(title), "podcast_duration": .int(duration)]
    }
  }
}

enum AppTaxonomy: Taxonomy {
  typealias Screen = AppScreen
  typealias UserAction = AppAction
}

// 2. A provider's calls and the mapping.

enum TrackerCall: ProviderCall {
  case screen(String)
  case event(String, Properties)
  var method: String { switch self { case .screen: "trackScreen"; case .event: "trackEvent" } }
  var name: String? { switch self { case .screen(let n), .event(let n, _): n } }
  var parameters: Properties { switch self { case .screen: [:]; case .event(_, let p): p } }
}

let trackerMapping: Mapping<AppTaxonomy, TrackerCall> = { tag, context in
  switch (tag, context.currentScreen) {
  case (.screen(.podcasts), _): return [.screen("show_podcasts")]
  case (.userAction(.playPodcast(let title, let duration)), .favorites?):
    return [.event("play_podcast_from_favorites", ["podcast_title": .string(title), "podcast_duration": .int(duration)])]
  case (.userAction(.playPodcast(let title, let duration)), _):
    return [.event("play_podcast_from_podcasts", ["podcast_title": .string(title), "podcast_duration": .int(duration)])]
  default: return []
  }
}

// 3. With the provider products: the Firebase SDK's adapter and mapping.

struct FirebaseSDK: FirebaseAnalyticsAdapter {  // one line per SDK method
  func logEvent(_ name: String, parameters: Properties) { /* Analytics.logEvent(name, parameters: parameters.foundationDictionary) */ }
  func setUserProperty(_ value: String?, forName name: String) { /* Analytics.setUserProperty(value, forName: name) */ }
  func setUserID(_ id: String?) {}
  func setDefaultEventParameters(_ parameters: Properties) {}
  func setAnalyticsCollectionEnabled(_ enabled: Bool) {}
  func setConsent(_ consent: FirebaseConsent) {}
  func resetAnalyticsData() {}
}

let firebaseMapping: Mapping<AppTaxonomy, FirebaseCall> = { tag, context in
  switch tag {
  case .screen(let screen): return [.screenView(name: "show_" + screen.name)]
  default: return []
  }
}
let firebase = Firebase.provider(adapter: FirebaseSDK(), mapping: firebaseMapping)

final class ReadmeExampleTests: XCTestCase {
  // 3. The adapter, the hub, tags sent from anywhere.
  func testStep3RegistersTheProviderAndSendsTags() throws {
    struct TrackerAdapter: SDKAdapter {
      func setup() { /* ThirdPartyTracker.configure(apiKey: …) */ }
      func deliver(_ call: TrackerCall) {
        switch call {
        case .screen(let name): print("trackScreen", name)  // ThirdPartyTracker.trackScreen(name:)
        case .event(let name, let parameters): print("trackEvent", name, parameters)
        }
      }
    }

    let hub = try AnalyticsHub<AppTaxonomy>(providers: [
      Provider(id: "tracker", category: .analytics, adapter: TrackerAdapter(), mapping: trackerMapping)
    ])
    hub.startSession(properties: ["voiceOver": true])
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(title: "Swift by Sundell", duration: 1830))  // → play_podcast_from_favorites
    hub.setConsent(false, for: .category(.analytics))  // the tracker now receives nothing: blocked(consent)
    hub.flush()
    XCTAssertEqual(hub.context.currentScreen, .favorites)
    XCTAssertEqual(hub.context.session?.properties, ["voiceOver": true])
    let dispatches = DispatchRecorder(observing: hub)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(dispatches.last?.outcome(for: "tracker")?.status, .blocked(.consent))
  }

  // 3. The two-provider app: FirebaseProvider and AmplitudeProvider.
  func testStep3TheTwoProviderAppRegistersBoth() throws {
    let amplitudeClient = AmplitudeSwift.Amplitude()
    _ = SDKCallLog.shared.take()
    let amplitudeMapping: Mapping<AppTaxonomy, AmplitudeCall> = { tag, _ in
      switch tag {
      case .screen(let screen): return [.track(eventType: "Screen Viewed", eventProperties: ["screen": .string(screen.name)])]
      case .userAction(let action): return [.track(eventType: TagNaming.titleCase(action.name), eventProperties: action.properties)]
      default: return []
      }
    }
    let amplitude = Amplitude.provider(adapter: AmplitudeSDK(amplitude: amplitudeClient), mapping: amplitudeMapping)
    let appHub = try AnalyticsHub<AppTaxonomy>(providers: [firebase, amplitude])
    appHub.send(userAction: .playPodcast(title: "Swift by Sundell", duration: 1830))  // → Amplitude's "Play Podcast"
    appHub.flush()
    XCTAssertEqual(appHub.providerIDs, ["firebase", "amplitude"])
    XCTAssertEqual(SDKCallLog.shared.take(), ["track Play Podcast [\"podcast_duration\", \"podcast_title\"]"])
  }

  // 4. The test.
  func testStep4TestsTheMappingInOneLine() throws {
    let tracker = TestAdapter<TrackerCall>()
    let hub = try AnalyticsHub<AppTaxonomy>(providers: [Provider(id: "tracker", adapter: tracker, mapping: trackerMapping)])
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(title: "Swift by Sundell", duration: 1830))
    hub.flush()  // waits until every tag sent so far reached every adapter and observer
    XCTAssertEqual(tracker.names.last, "play_podcast_from_favorites")
  }

  // 4. The providers' rules.
  func testStep4AssertsThatNoProviderRuleWasBroken() throws {
    let firebaseCalls = TestAdapter<FirebaseCall>()
    let checked = try AnalyticsHub<AppTaxonomy>(providers: [Firebase.provider(adapter: firebaseCalls, mapping: firebaseMapping)])
    let dispatches = DispatchRecorder(observing: checked)
    checked.send(screen: .favorites)
    checked.flush()
    XCTAssertEqual(firebaseCalls.names, ["screen_view"])
    try dispatches.assertNoRuleViolations()
  }

  func testTheRuleAssertionFailsOnABrokenRule() throws {
    let overlong: Mapping<AppTaxonomy, FirebaseCall> = { _, _ in
      [.logEvent("play_podcast_from_favorites_while_offline_again", [:])]
    }
    let checked = try AnalyticsHub<AppTaxonomy>(providers: [Firebase.provider(adapter: TestAdapter(), mapping: overlong)])
    let dispatches = DispatchRecorder(observing: checked)
    checked.send(screen: .favorites)
    checked.flush()
    XCTAssertThrowsError(try dispatches.assertNoRuleViolations()) { error in
      let text = String(describing: error)
      XCTAssertTrue(text.hasPrefix("1 provider rule broken:\n  #1 screen favorites → firebase: firebase.event-name-length: "), text)
    }
  }

  func testTheFirebaseAdapterGetsWhatTheMappingReturned() throws {
    let hub = try AnalyticsHub<AppTaxonomy>(providers: [firebase])
    let dispatches = DispatchRecorder(observing: hub)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(dispatches.last?.outcome(for: "firebase")?.calls.map(\.name), ["screen_view"])
    XCTAssertEqual(dispatches.violations, [])
  }
}
