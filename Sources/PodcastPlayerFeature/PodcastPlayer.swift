import AnalyticsHub
import Foundation

/// The podcast player: what happens in it, told to analytics through a tracker of the player's own
/// tags. The app hands it `hub.scoped(to:)` its embedding; the player's tests hand it a
/// `RecordingTracker<PlayerTaxonomy>`.
///
/// It remembers the podcast being played, so the player's lifecycle, the listener's pause and the
/// listening time all name the podcast that was last played.
public final class PodcastPlayer: @unchecked Sendable {
  private let tracker: any AnalyticsTracking<PlayerTaxonomy>
  private let lock = NSLock()
  private var playing: Podcast?

  /// A player sending its tags to `tracker`.
  public init(tracker: some AnalyticsTracking<PlayerTaxonomy>) { self.tracker = tracker }

  /// The podcast last played, if any.
  public var podcast: Podcast? { lock.withLock { playing } }

  /// The full-screen player is displayed.
  public func show() { tracker.send(screen: .podcastPlayer) }

  /// The listener taps play on `podcast` (in the full player or a mini player).
  public func play(_ podcast: Podcast) {
    lock.withLock { playing = podcast }
    tracker.send(userAction: .playPodcast(podcast))
  }

  /// The listener taps pause; nothing is sent when nothing was played.
  public func pause() {
    guard let podcast else { return }
    tracker.send(userAction: .pausePodcast(podcast))
  }

  /// The podcast played last is loaded.
  public func didLoad() { podcast.map { tracker.send(event: .playerDidLoad($0)) } }

  /// Playback started.
  public func didPlay() { podcast.map { tracker.send(event: .playerDidPlay($0)) } }

  /// Playback stopped at `position` seconds.
  public func didStop(at position: Int) {
    podcast.map { tracker.send(event: .playerDidStop($0, position: position)) }
  }

  /// Playback failed with `error`.
  public func didFail(error: String) { podcast.map { tracker.send(event: .playerDidFail($0, error: error)) } }

  /// The listening time of the podcast played last starts.
  public func startListening() { podcast.map { tracker.start(timedEvent: .listening($0)) } }

  /// The listening time stops and is sent with its duration.
  public func stopListening() { podcast.map { tracker.stop(timedEvent: .listening($0)) } }

  /// The autoplay setting changed.
  public func setAutoPlay(_ enabled: Bool) { tracker.send(state: .autoPlay(enabled)) }
}
