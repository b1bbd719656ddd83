import AnalyticsHub
import AnalyticsHubTesting
import AnalyticsProviders
import PodcastDemo
import XCTest

/// The player feature inside the demo app: its tags embedded and extracted, sent through the app's
/// hub by `PodcastPlayer`, mapped by the app's mappings combined with the player's.
final class PlayerFeatureEmbeddingTests: XCTestCase {
  let podcast = Podcast.catalogue[0]

  func testEveryPlayerTagEmbedsAndExtractsBackAndNoAppTagIsThePlayers() {
    let actions: [PlayerAction] = [.playPodcast(podcast), .pausePodcast(podcast)]
    for action in actions {
      XCTAssertEqual(
        PlayerInPodcastApp.extract(userAction: PlayerInPodcastApp.embed(userAction: action)), action)
      XCTAssertEqual(PlayerInPodcastApp.embed(userAction: action).name, action.name)
    }
    let events: [PlayerEvent] = [
      .playerDidLoad(podcast), .playerDidPlay(podcast), .playerDidStop(podcast, position: 3),
      .playerDidFail(podcast, error: "timeout"),
    ]
    for event in events {
      XCTAssertEqual(PlayerInPodcastApp.extract(event: PlayerInPodcastApp.embed(event: event)), event)
      XCTAssertEqual(PlayerInPodcastApp.embed(event: event).properties, event.properties)
    }
    XCTAssertEqual(PlayerInPodcastApp.extract(state: .autoPlay(true)), .autoPlay(true))
    XCTAssertEqual(PlayerInPodcastApp.extract(timedEvent: .listening(podcast)), .listening(podcast))
    XCTAssertEqual(PlayerInPodcastApp.embed(screen: .podcastPlayer), .podcastPlayer)
    XCTAssertEqual(
      PodcastScreen.allCases.compactMap(PlayerInPodcastApp.extract(screen:)), [.podcastPlayer])
    XCTAssertNil(PlayerInPodcastApp.extract(userAction: .downloadPodcast(podcast)))
    XCTAssertNil(
      PlayerInPodcastApp.extract(event: .notEnoughStorageSpaceForDownload(podcast, availableBytes: 1)))
    XCTAssertNil(PlayerInPodcastApp.extract(state: .favorites([])))
    XCTAssertNil(PlayerInPodcastApp.extract(timedEvent: .onboarding))
  }

  func testThePlayerSendsThroughTheAppsHubAndEachProviderGetsOneMappingsCalls() throws {
    let firebase = TestAdapter<FirebaseCall>()
    let braze = TestAdapter<BrazeCall>()
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      providers: PodcastMappings.providers(
        adapters: PodcastAdapters(firebase: firebase, braze: braze), including: [Firebase.id, Braze.id]))
    let dispatches = DispatchRecorder(observing: hub)
    let player = PodcastPlayer(tracker: hub.scoped(to: PlayerInPodcastApp.self))
    hub.send(screen: .favorites)
    player.play(podcast)  // the app's mapping: named after the screen
    player.didFail(error: "HTTP 503")  // the player's mapping, lifted
    player.setAutoPlay(false)
    hub.flush()

    XCTAssertEqual(
      dispatches.dispatches.map(\.name), ["favorites", "playPodcast", "playerDidFail", "autoPlay"])
    XCTAssertEqual(
      firebase.names, ["screen_view", "play_podcast_from_favorites", "player_error", "autoplay_enabled"])
    XCTAssertEqual(braze.names, ["podcast_played", "autoplay"])
    XCTAssertEqual(dispatches.violations, [])
  }
}
