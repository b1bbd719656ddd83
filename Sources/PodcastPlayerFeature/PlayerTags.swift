import AnalyticsHub

/// The podcast player feature's own tag vocabulary: its screen, what the listener does in it, what
/// the player does by itself, its setting and the listening it times. An app embeds these tags in
/// its own taxonomy (a `FeatureEmbedding`); this module knows nothing of the app's.
public enum PlayerTaxonomy: Taxonomy {
  public typealias Screen = PlayerScreen
  public typealias UserAction = PlayerAction
  public typealias Event = PlayerEvent
  public typealias State = PlayerState
  public typealias TimedEvent = PlayerTimedEvent
}

/// The player's screen.
public enum PlayerScreen: String, AnalyticsTag, Hashable, CaseIterable {
  /// The full-screen player.
  case podcastPlayer

  public var name: String { rawValue }
}

/// What the listener does in the player (the full player or the mini player of another screen).
public enum PlayerAction: AnalyticsTag, Hashable {
  case playPodcast(Podcast)
  case pausePodcast(Podcast)

  public var name: String {
    switch self {
    case .playPodcast: return "playPodcast"
    case .pausePodcast: return "pausePodcast"
    }
  }

  public var properties: Properties {
    switch self {
    case .playPodcast(let podcast), .pausePodcast(let podcast): return podcast.tagProperties
    }
  }

  public var eventType: EventType? { .click }
}

/// What the player does without the listener: its lifecycle and its failures.
public enum PlayerEvent: AnalyticsTag, Hashable {
  case playerDidLoad(Podcast)
  case playerDidPlay(Podcast)
  case playerDidStop(Podcast, position: Int)
  case playerDidFail(Podcast, error: String)

  public var name: String {
    switch self {
    case .playerDidLoad: return "playerDidLoad"
    case .playerDidPlay: return "playerDidPlay"
    case .playerDidStop: return "playerDidStop"
    case .playerDidFail: return "playerDidFail"
    }
  }

  public var properties: Properties {
    switch self {
    case .playerDidLoad(let podcast), .playerDidPlay(let podcast): return podcast.tagProperties
    case .playerDidStop(let podcast, let position):
      return podcast.tagProperties.merging(["position": .int(position)])
    case .playerDidFail(let podcast, let error):
      return podcast.tagProperties.merging(["error": .string(error)])
    }
  }
}

/// The player's setting.
public enum PlayerState: AnalyticsTag, Hashable {
  /// Whether the next podcast plays by itself.
  case autoPlay(Bool)

  public var name: String {
    switch self {
    case .autoPlay: return "autoPlay"
    }
  }

  public var properties: Properties {
    switch self {
    case .autoPlay(let value): return ["value": .bool(value)]
    }
  }
}

/// What the player times: listening to a podcast, from play to stop.
public enum PlayerTimedEvent: AnalyticsTag, Hashable {
  case listening(Podcast)

  public var name: String {
    switch self {
    case .listening: return "listening"
    }
  }

  public var properties: Properties {
    switch self {
    case .listening(let podcast): return podcast.tagProperties
    }
  }
}
