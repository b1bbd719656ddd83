import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

/// The player feature's mappings, written for the player's own tags and lifted into the app's by
/// ``PlayerInPodcastApp`` (see ``PodcastMappings``): what each provider makes of the player's
/// events, its setting and the listening time. Play and pause are the app's to map, since their
/// names and parameters depend on the screen they are tapped on; a provider that ignores one of the
/// player's tags returns `[]`.
public enum PlayerMappings {
  /// Firebase: `player_error`, the `autoplay_enabled` user property, `listening_start`/`_stop`.
  public static let firebase: Mapping<PlayerTaxonomy, FirebaseCall> = { tag, _ in
    switch tag {
    case .event(.playerDidFail(let podcast, let error)):
      return [.logEvent("player_error", podcast.params.merging(["error": .string(error)]))]
    case .state(.autoPlay(let enabled)):
      return [.setUserProperty(String(enabled), forName: "autoplay_enabled")]
    case .timedStart, .timedStop, .timedCancel:
      return Firebase.timedEvent(tag)
    default:
      return []
    }
  }

  /// Amplitude: `Player Error`, the `autoplay` user property, `Listening Started`/`Completed`.
  public static let amplitude: Mapping<PlayerTaxonomy, AmplitudeCall> = { tag, _ in
    switch tag {
    case .event(.playerDidFail(let podcast, let error)):
      return [
        .track(eventType: "Player Error", eventProperties: podcast.params.merging(["error": .string(error)]))
      ]
    case .state(.autoPlay(let enabled)):
      return [.identify(userProperties: ["autoplay": .bool(enabled)])]
    case .timedStart, .timedStop, .timedCancel:
      return Amplitude.timedEvent(tag)
    default:
      return []
    }
  }

  /// Piano: `player.error` only.
  public static let piano: Mapping<PlayerTaxonomy, PianoCall> = { tag, _ in
    guard case .event(.playerDidFail(let podcast, let error)) = tag else { return [] }
    return [.sendEvent(name: "player.error", properties: podcast.params.merging(["error": .string(error)]))]
  }

  /// Braze: `podcast_played`, the `autoplay` attribute, the listening time.
  public static let braze: Mapping<PlayerTaxonomy, BrazeCall> = { tag, _ in
    switch tag {
    case .userAction(.playPodcast(let podcast)):
      return [.logCustomEvent(name: "podcast_played", properties: podcast.params)]
    case .state(.autoPlay(let enabled)):
      return [.setCustomAttribute(key: "autoplay", value: .bool(enabled))]
    case .timedStart, .timedStop, .timedCancel:
      return Braze.timedEvent(tag)
    default:
      return []
    }
  }

  /// PayPal FPTI: `player_did_fail` in the `player` category.
  public static let fpti: Mapping<PlayerTaxonomy, FPTICall> = { tag, _ in
    guard case .event(.playerDidFail) = tag else { return [] }
    return [FPTI.event(tag, name: TagNaming.snakeCase(tag.name), category: "player")]
  }

  /// Segment: `Player Error`, `Listening Started`/`Completed`.
  public static let segment: Mapping<PlayerTaxonomy, SegmentCall> = { tag, _ in
    switch tag {
    case .event(.playerDidFail(let podcast, let error)):
      return [.track(name: "Player Error", properties: podcast.params.merging(["error": .string(error)]))]
    case .timedStart, .timedStop, .timedCancel:
      return Segment.timedEvent(tag)
    default:
      return []
    }
  }

  /// Mixpanel: the listening time, as its native timed event.
  public static let mixpanel: Mapping<PlayerTaxonomy, MixpanelCall> = { tag, _ in
    switch tag {
    case .timedStart, .timedStop, .timedCancel:
      return Mixpanel.timedEvent(tag)
    default:
      return []
    }
  }
}
