// swift-format-ignore-file
// The AnalyticsHub catalog's "Feature modules" article and the doc comments of FeatureEmbedding, ScopedTracker and
// RecordingTracker, verbatim (DocExampleCoverageTests checks that they are): the feature module's
// types in a namespace (Getting started's examples have an AppAction of their own), the app's in
// the functions that run them. Not formatted: a copy must keep the article's lines.

import AnalyticsHub
import AnalyticsHubTesting
import FirebaseProvider
import XCTest

/// The playback feature module of the Feature modules article.
enum FeatureModuleExample {
  public enum PlaybackAction: AnalyticsTag, Hashable {
    case play(episode: String)
    case pause(episode: String)
    public var name: String {
      switch self {
      case .play: "play"
      case .pause: "pause"
      }
    }
    public var properties: Properties {
      switch self {
      case .play(let episode), .pause(let episode): ["episode": .string(episode)]
      }
    }
  }

  public enum PlaybackTaxonomy: Taxonomy {
    public typealias UserAction = PlaybackAction
  }

  public struct PlayerModel: Sendable {
    let tracker: any AnalyticsTracking<PlaybackTaxonomy>
    public init(tracker: some AnalyticsTracking<PlaybackTaxonomy>) { self.tracker = tracker }
    public func play(episode: String) { tracker.send(userAction: .play(episode: episode)) }
  }
}

extension FeatureModuleExample {
  /// The app: its tags embedding the feature's, the feature's tracker, the composed mapping.
  static func app() throws {
    enum AppAction: AnalyticsTag {
      case playback(PlaybackAction)
      case search(query: String)
      var name: String {
        switch self {
        case .playback(let action): action.name
        case .search: "search"
        }
      }
      var properties: Properties {
        switch self {
        case .playback(let action): action.properties
        case .search(let query): ["query": .string(query)]
        }
      }
    }

    enum AppTaxonomy: Taxonomy {
      typealias UserAction = AppAction
    }

    enum PlaybackInApp: FeatureEmbedding {
      typealias Feature = PlaybackTaxonomy
      typealias App = AppTaxonomy
      static func embed(userAction: PlaybackAction) -> AppAction { .playback(userAction) }
      static func extract(userAction: AppAction) -> PlaybackAction? {
        if case .playback(let action) = userAction { action } else { nil }
      }
    }
    let hub = try AnalyticsHub<AppTaxonomy>()
    let player = PlayerModel(tracker: hub.scoped(to: PlaybackInApp.self))  // it can send PlaybackAction only
    player.play(episode: "42")  // the hub gets AppAction.playback(.play(episode: "42")), named "play"

    let playbackFirebase: Mapping<PlaybackTaxonomy, FirebaseCall> = { tag, _ in
      switch tag {
      case .userAction(.play(let episode)): return [.logEvent("play_episode", ["episode": .string(episode)])]
      default: return []  // pause: Firebase ignores it
      }
    }
    let searchFirebase: Mapping<AppTaxonomy, FirebaseCall> = { tag, _ in
      switch tag {
      case .userAction(.search(let query)): return [.logEvent("search", ["search_term": .string(query)])]
      default: return []
      }
    }
    let firebase = Firebase.provider(
      adapter: FirebaseSDK(), mapping: Mappings.combined(searchFirebase, PlaybackInApp.lift(playbackFirebase)))
    _ = firebase
    let calls = TestAdapter<FirebaseCall>()
    try hub.register(
      Firebase.provider(
        id: "checked", adapter: calls, mapping: Mappings.combined(searchFirebase, PlaybackInApp.lift(playbackFirebase))))
    hub.send(userAction: .search(query: "swift"))
    player.play(episode: "43")
    hub.send(userAction: .playback(.pause(episode: "43")))
    hub.flush()
    XCTAssertEqual(calls.names, ["search", "play_episode"], "pause: Firebase ignores it")
    XCTAssertEqual(calls.calls.last?.parameters, ["episode": "43"])
    XCTAssertEqual(hub.providerIDs, ["checked"])
  }

  /// The feature's test: no app, no hub.
  static func featureTest() {
    let tracker = RecordingTracker<PlaybackTaxonomy>()
    PlayerModel(tracker: tracker).play(episode: "42")
    XCTAssertEqual(tracker.sent, [.userAction(.play(episode: "42"))])
    XCTAssertEqual(tracker.names, ["play"])
  }
}

final class FeatureModuleExampleTests: XCTestCase {
  func testTheAppSendsTheFeatureTagsEmbeddedAndMapsThemWithTheFeatureMapping() throws {
    try FeatureModuleExample.app()
  }

  func testTheFeatureIsTestedWithARecordingTracker() {
    FeatureModuleExample.featureTest()
  }
}
