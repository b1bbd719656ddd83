import AnalyticsHub

/// The demo app's tag vocabulary (seed 000: four screens, podcast actions, player events, states),
/// plus login, settings and onboarding for sessions and timed events.
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

/// What the user does.
public enum PodcastAction: AnalyticsTag, Hashable {
  case playPodcast(Podcast)
  case pausePodcast(Podcast)
  case downloadPodcast(Podcast)
  case deletePodcast(Podcast)
  case addPodcastToFavorite(Podcast)
  case removePodcastFromFavorite(Podcast)
  case login(method: String)
  case logout
  case openPodcast(Podcast)

  public var name: String {
    switch self {
    case .playPodcast: return "playPodcast"
    case .pausePodcast: return "pausePodcast"
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
    case .playPodcast(let podcast), .pausePodcast(let podcast), .deletePodcast(let podcast),
      .addPodcastToFavorite(let podcast), .removePodcastFromFavorite(let podcast), .openPodcast(let podcast):
      return podcast.tagProperties
    case .downloadPodcast(let podcast):
      return podcast.tagProperties.merging(["podcast_size": .int(podcast.sizeBytes)])
    case .login(let method): return ["method": .string(method)]
    case .logout: return [:]
    }
  }

  public var eventType: EventType? {
    switch self {
    case .openPodcast: return .redirect
    default: return .click
    }
  }
}

/// What happens without the user: player lifecycle, failures.
public enum PodcastEvent: AnalyticsTag, Hashable {
  case playerDidLoad(Podcast)
  case playerDidPlay(Podcast)
  case playerDidStop(Podcast, position: Int)
  case playerDidFail(Podcast, error: String)
  case notEnoughStorageSpaceForDownload(Podcast, availableBytes: Int)

  public var name: String {
    switch self {
    case .playerDidLoad: return "playerDidLoad"
    case .playerDidPlay: return "playerDidPlay"
    case .playerDidStop: return "playerDidStop"
    case .playerDidFail: return "playerDidFail"
    case .notEnoughStorageSpaceForDownload: return "notEnoughStorageSpaceForDownload"
    }
  }

  public var properties: Properties {
    switch self {
    case .playerDidLoad(let podcast), .playerDidPlay(let podcast): return podcast.tagProperties
    case .playerDidStop(let podcast, let position):
      return podcast.tagProperties.merging(["position": .int(position)])
    case .playerDidFail(let podcast, let error):
      return podcast.tagProperties.merging(["error": .string(error)])
    case .notEnoughStorageSpaceForDownload(let podcast, let available):
      return podcast.tagProperties.merging([
        "required_bytes": .int(podcast.sizeBytes), "available_bytes": .int(available),
      ])
    }
  }
}

/// User properties and app states.
public enum PodcastState: AnalyticsTag, Hashable {
  case autoPlay(Bool)
  case favorites([Podcast])
  case remoteNotificationAuthorized(Bool)

  public var name: String {
    switch self {
    case .autoPlay: return "autoPlay"
    case .favorites: return "favorites"
    case .remoteNotificationAuthorized: return "remoteNotificationAuthorized"
    }
  }

  public var properties: Properties {
    switch self {
    case .autoPlay(let value), .remoteNotificationAuthorized(let value): return ["value": .bool(value)]
    case .favorites(let podcasts):
      return ["count": .int(podcasts.count), "titles": .array(podcasts.map { .string($0.title) })]
    }
  }
}

/// Things with a start and a stop.
public enum PodcastTimedEvent: AnalyticsTag, Hashable {
  case onboarding
  case listening(Podcast)

  public var name: String {
    switch self {
    case .onboarding: return "onboarding"
    case .listening: return "listening"
    }
  }

  public var properties: Properties {
    switch self {
    case .onboarding: return [:]
    case .listening(let podcast): return podcast.tagProperties
    }
  }
}
