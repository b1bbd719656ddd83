import AnalyticsHub
import AnalyticsHubTesting
import PodcastPlayerFeature
import XCTest

/// The player feature tested alone: a tracker of its own tags, no app, no hub, no provider.
final class PodcastPlayerTests: XCTestCase {
  private let podcast = Podcast(
    id: "p1", title: "Swift by Sundell", duration: 1830, category: "tech", sizeBytes: 44_000_000)
  private let other = Podcast(
    id: "p4", title: "Radiolab", duration: 3300, category: "science", sizeBytes: 79_000_000)

  func testAListenSendsThePlayersTagsInOrderNamingThePodcastPlayed() {
    let tracker = RecordingTracker<PlayerTaxonomy>()
    let player = PodcastPlayer(tracker: tracker)
    player.play(podcast)
    player.didLoad()
    player.didPlay()
    player.startListening()
    player.show()
    player.pause()
    player.didStop(at: 42)
    player.stopListening()

    XCTAssertEqual(
      tracker.sent,
      [
        .userAction(.playPodcast(podcast)), .event(.playerDidLoad(podcast)), .event(.playerDidPlay(podcast)),
        .start(.listening(podcast)), .screen(.podcastPlayer), .userAction(.pausePodcast(podcast)),
        .event(.playerDidStop(podcast, position: 42)), .stop(.listening(podcast)),
      ])
    XCTAssertEqual(
      tracker.names,
      [
        "playPodcast", "playerDidLoad", "playerDidPlay", "listening", "podcastPlayer", "pausePodcast",
        "playerDidStop", "listening",
      ])
  }

  func testTheTagsCarryThePodcastAsTheAppsPlanExpects() {
    let tracker = RecordingTracker<PlayerTaxonomy>()
    let player = PodcastPlayer(tracker: tracker)
    player.play(podcast)
    player.didFail(error: "HTTP 503")
    player.didStop(at: 12)
    let expected: Properties = [
      "podcast_id": "p1", "podcast_title": "Swift by Sundell", "podcast_duration": 1830,
    ]
    XCTAssertEqual(tracker.sent[0].properties, expected)
    XCTAssertEqual(tracker.sent[1].properties, expected.merging(["error": "HTTP 503"]))
    XCTAssertEqual(tracker.sent[2].properties, expected.merging(["position": 12]))
    XCTAssertEqual(PlayerAction.playPodcast(podcast).eventType, .click)
  }

  func testPlayingAnotherPodcastMovesTheLifecycleToIt() {
    let tracker = RecordingTracker<PlayerTaxonomy>()
    let player = PodcastPlayer(tracker: tracker)
    player.play(podcast)
    player.play(other)
    player.pause()
    XCTAssertEqual(player.podcast, other)
    XCTAssertEqual(tracker.sent.last, .userAction(.pausePodcast(other)))
  }

  func testNothingIsSentAboutAPodcastBeforeOneIsPlayed() {
    let tracker = RecordingTracker<PlayerTaxonomy>()
    let player = PodcastPlayer(tracker: tracker)
    player.pause()
    player.didLoad()
    player.didPlay()
    player.didStop(at: 3)
    player.didFail(error: "timeout")
    player.startListening()
    player.stopListening()
    XCTAssertEqual(tracker.sent, [])
    player.setAutoPlay(false)
    XCTAssertEqual(tracker.sent, [.state(.autoPlay(false))])
    XCTAssertEqual(tracker.sent.first?.properties, ["value": false])
  }
}
