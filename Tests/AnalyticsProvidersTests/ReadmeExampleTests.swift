import AnalyticsHub
import AnalyticsHubTesting
import AnalyticsProviders
import XCTest

// The "Adopt it in your app" example of README.md, kept compiling and passing here.

private enum AppScreen: String, AnalyticsTag, Hashable {
  case podcasts, favorites
  var name: String { rawValue }
}

private enum AppAction: AnalyticsTag {
  case playPodcast(title: String, duration: Int)
  var name: String { "playPodcast" }
  var properties: Properties {
    switch self {
    case .playPodcast(let title, let duration):
      ["podcast_title": .string(title), "podcast_duration": .int(duration)]
    }
  }
}

private enum AppTaxonomy: Taxonomy {
  typealias Screen = AppScreen
  typealias UserAction = AppAction
}

private enum TrackerCall: ProviderCall {
  case screen(String)
  case event(String, Properties)
  var method: String {
    switch self {
    case .screen: "trackScreen"
    case .event: "trackEvent"
    }
  }
  var name: String? {
    switch self {
    case .screen(let n), .event(let n, _): n
    }
  }
  var parameters: Properties {
    switch self {
    case .screen: [:]
    case .event(_, let p): p
    }
  }
}

private let trackerMapping: Mapping<AppTaxonomy, TrackerCall> = { tag, context in
  switch (tag, context.currentScreen) {
  case (.screen(.podcasts), _): return [.screen("show_podcasts")]
  case (.userAction(.playPodcast(let title, let duration)), .favorites?):
    return [
      .event(
        "play_podcast_from_favorites", ["podcast_title": .string(title), "podcast_duration": .int(duration)])
    ]
  case (.userAction(.playPodcast(let title, let duration)), _):
    return [
      .event(
        "play_podcast_from_podcasts", ["podcast_title": .string(title), "podcast_duration": .int(duration)])
    ]
  default: return []
  }
}

private struct FirebaseSDK: FirebaseAnalyticsAdapter {
  let received = TestAdapter<FirebaseCall>()
  func logEvent(_ name: String, parameters: Properties) { try? received.deliver(.logEvent(name, parameters)) }
  func setUserProperty(_ value: String?, forName name: String) {}
  func setUserID(_ id: String?) {}
  func setDefaultEventParameters(_ parameters: Properties) {}
  func setAnalyticsCollectionEnabled(_ enabled: Bool) {}
  func setConsent(_ consent: FirebaseConsent) {}
  func resetAnalyticsData() {}
}

final class ReadmeExampleTests: XCTestCase {
  func testTheAdoptionExampleSendsFromFavoritesAndHonoursConsent() throws {
    let tracker = TestAdapter<TrackerCall>()
    let hub = try AnalyticsHub<AppTaxonomy>(providers: [
      Provider(id: "tracker", category: .analytics, adapter: tracker, mapping: trackerMapping)
    ])
    hub.startSession(properties: ["voiceOver": true])
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(title: "Swift by Sundell", duration: 1830))
    hub.flush()
    XCTAssertEqual(tracker.names.last, "play_podcast_from_favorites")
    hub.setConsent(false, for: .category(.analytics))
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(tracker.names, ["play_podcast_from_favorites"])
  }

  func testTheFirebaseExampleChecksRulesAndStillDelivers() throws {
    let sdk = FirebaseSDK()
    let firebase = Firebase.provider(adapter: sdk) { (tag: Tag<AppTaxonomy>, _) -> [FirebaseCall] in
      switch tag {
      case .screen(let screen): return [.screenView(name: "show_" + screen.name, screenClass: nil)]
      default: return []
      }
    }
    let hub = try AnalyticsHub<AppTaxonomy>(providers: [firebase])
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    hub.send(screen: .favorites)
    hub.flush()
    XCTAssertEqual(sdk.received.names, ["screen_view"])
    XCTAssertEqual(recorder.last?.outcome(for: "firebase")?.status, .sent)
    XCTAssertEqual(recorder.last?.outcome(for: "firebase")?.violations, [])
  }
}
