import AnalyticsHub
import PodcastPlayerFeature

/// The demo app's tag vocabulary (seed 000: four screens, podcast actions, player events, states),
/// plus login, settings and onboarding for sessions and timed events. The player's tags are those of
/// the `PodcastPlayerFeature` module, embedded (`PodcastAction.player(PlayerAction)`…, see
/// ``PlayerInPodcastApp``); their names and properties are the player's own.
public enum PodcastTaxonomy: Taxonomy {
  public typealias Screen = PodcastScreen
  public typealias UserAction = PodcastAction
  public typealias Event = PodcastEvent
  public typealias State = PodcastState
  public typealias TimedEvent = PodcastTimedEvent
}

/// Screens of the podcast app.
public enum PodcastScreen: String, AnalyticsTag, Hashable, CaseIterable {
  case podcasts
  case podcastPlayer
  case favorites
  case downloads
  case login
  case settings
  case onboarding

  public var name: String { rawValue }
}

/// What the user does; the player's actions are the player feature's.
public enum PodcastAction: AnalyticsTag, Hashable {
  case player(PlayerAction)
  case downloadPodcast(Podcast)
  case deletePodcast(Podcast)
  case addPodcastToFavorite(Podcast)
  case removePodcastFromFavorite(Podcast)
  case login(method: String)
  case logout
  case openPodcast(Podcast)

  /// The player's `playPodcast`.
  public static func playPodcast(_ podcast: Podcast) -> PodcastAction { .player(.playPodcast(podcast)) }
  /// The player's `pausePodcast`.
  public static func pausePodcast(_ podcast: Podcast) -> PodcastAction { .player(.pausePodcast(podcast)) }

  public var name: String {
    switch self {
    case .player(let action): return action.name
    case .downloadPodcast: return "downloadPodcast"
    case .deletePodcast: return "deletePodcast"
    case .addPodcastToFavorite: return "addPodcastToFavorite"
    case .removePodcastFromFavorite: return "removePodcastFromFavorite"
    case .login: return "login"
    case .logout: return "logout"
    case .openPodcast: return "openPodcast"
    }
  }

  public var properties: Properties {
    switch self {
    case .player(let action): return action.properties
    case .deletePodcast(let podcast), .addPodcastToFavorite(let podcast),
      .removePodcastFromFavorite(let podcast),
      .openPodcast(let podcast):
      return podcast.tagProperties
    case .downloadPodcast(let podcast):
      return podcast.tagProperties.merging(["podcast_size": .int(podcast.sizeBytes)])
    case .login(let method): return ["method": .string(method)]
    case .logout: return [:]
    }
  }

  public var eventType: EventType? {
    switch self {
    case .player(let action): return action.eventType
    case .openPodcast: return .redirect
    default: return .click
    }
  }
}

/// What happens without the user: the player's events (the player feature's), failed downloads.
public enum PodcastEvent: AnalyticsTag, Hashable {
  case player(PlayerEvent)
  case notEnoughStorageSpaceForDownload(Podcast, availableBytes: Int)

  /// The player's `playerDidLoad`.
  public static func playerDidLoad(_ podcast: Podcast) -> PodcastEvent { .player(.playerDidLoad(podcast)) }
  /// The player's `playerDidPlay`.
  public static func playerDidPlay(_ podcast: Podcast) -> PodcastEvent { .player(.playerDidPlay(podcast)) }
  /// The player's `playerDidStop`.
  public static func playerDidStop(_ podcast: Podcast, position: Int) -> PodcastEvent {
    .player(.playerDidStop(podcast, position: position))
  }
  /// The player's `playerDidFail`.
  public static func playerDidFail(_ podcast: Podcast, error: String) -> PodcastEvent {
    .player(.playerDidFail(podcast, error: error))
  }

  public var name: String {
    switch self {
    case .player(let event): return event.name
    case .notEnoughStorageSpaceForDownload: return "notEnoughStorageSpaceForDownload"
    }
  }

  public var properties: Properties {
    switch self {
    case .player(let event): return event.properties
    case .notEnoughStorageSpaceForDownload(let podcast, let available):
      return podcast.tagProperties.merging([
        "required_bytes": .int(podcast.sizeBytes), "available_bytes": .int(available),
      ])
    }
  }
}

/// User properties and app states; the player's setting is the player feature's.
public enum PodcastState: AnalyticsTag, Hashable {
  case player(PlayerState)
  case favorites([Podcast])
  case remoteNotificationAuthorized(Bool)

  /// The player's `autoPlay`.
  public static func autoPlay(_ enabled: Bool) -> PodcastState { .player(.autoPlay(enabled)) }

  public var name: String {
    switch self {
    case .player(let state): return state.name
    case .favorites: return "favorites"
    case .remoteNotificationAuthorized: return "remoteNotificationAuthorized"
    }
  }

  public var properties: Properties {
    switch self {
    case .player(let state): return state.properties
    case .remoteNotificationAuthorized(let value): return ["value": .bool(value)]
    case .favorites(let podcasts):
      return ["count": .int(podcasts.count), "titles": .array(podcasts.map { .string($0.title) })]
    }
  }
}

/// Things with a start and a stop; listening is the player feature's.
public enum PodcastTimedEvent: AnalyticsTag, Hashable {
  case onboarding
  case player(PlayerTimedEvent)

  /// The player's `listening`.
  public static func listening(_ podcast: Podcast) -> PodcastTimedEvent { .player(.listening(podcast)) }

  public var name: String {
    switch self {
    case .onboarding: return "onboarding"
    case .player(let timed): return timed.name
    }
  }

  public var properties: Properties {
    switch self {
    case .onboarding: return [:]
    case .player(let timed): return timed.properties
    }
  }
}

/// How the player feature's tags sit in the app's: each kind wrapped in its `player` case, and the
/// player's screen as the app's `podcastPlayer` screen.
public enum PlayerInPodcastApp: FeatureEmbedding {
  public typealias Feature = PlayerTaxonomy
  public typealias App = PodcastTaxonomy

  public static func embed(screen: PlayerScreen) -> PodcastScreen {
    switch screen {
    case .podcastPlayer: return .podcastPlayer
    }
  }

  public static func extract(screen: PodcastScreen) -> PlayerScreen? {
    screen == .podcastPlayer ? .podcastPlayer : nil
  }

  public static func embed(userAction: PlayerAction) -> PodcastAction { .player(userAction) }

  public static func extract(userAction: PodcastAction) -> PlayerAction? {
    if case .player(let action) = userAction { return action }
    return nil
  }

  public static func embed(event: PlayerEvent) -> PodcastEvent { .player(event) }

  public static func extract(event: PodcastEvent) -> PlayerEvent? {
    if case .player(let event) = event { return event }
    return nil
  }

  public static func embed(state: PlayerState) -> PodcastState { .player(state) }

  public static func extract(state: PodcastState) -> PlayerState? {
    if case .player(let state) = state { return state }
    return nil
  }

  public static func embed(timedEvent: PlayerTimedEvent) -> PodcastTimedEvent { .player(timedEvent) }

  public static func extract(timedEvent: PodcastTimedEvent) -> PlayerTimedEvent? {
    if case .player(let timed) = timedEvent { return timed }
    return nil
  }
}
