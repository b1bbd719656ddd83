import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

extension PodcastMappings {
  static func amplitudeCalls(for tag: Tag<PodcastTaxonomy>, in context: HubContext<PodcastTaxonomy>)
    -> [AmplitudeCall]
  {
    let source: Properties = ["source_screen": .string(context.currentScreen?.rawValue ?? "unknown")]
    switch tag {
    case .screen(let screen):
      return [.track(eventType: "Screen Viewed", eventProperties: ["screen": .string(screen.rawValue)])]
    case .userAction(let action):
      switch action {
      case .player(.playPodcast(let podcast)):
        return [.track(eventType: "Play Podcast", eventProperties: podcast.params.merging(source))]
      case .player(.pausePodcast(let podcast)):
        return [.track(eventType: "Pause Podcast", eventProperties: podcast.params.merging(source))]
      case .downloadPodcast(let podcast):
        return [.track(eventType: "Download Podcast", eventProperties: podcast.params)]
      case .deletePodcast(let podcast):
        return [.track(eventType: "Delete Podcast", eventProperties: podcast.params)]
      case .addPodcastToFavorite(let podcast):
        return [.track(eventType: "Add Favorite", eventProperties: podcast.params)]
      case .removePodcastFromFavorite(let podcast):
        return [.track(eventType: "Remove Favorite", eventProperties: podcast.params)]
      case .login(let method):
        return [.track(eventType: "Log In", eventProperties: ["method": .string(method)])]
      case .logout:
        return [.track(eventType: "Log Out", eventProperties: [:])]
      case .openPodcast(let podcast):
        return [.track(eventType: "Open Podcast", eventProperties: podcast.params)]
      }
    case .event(.notEnoughStorageSpaceForDownload(let podcast, let available)):
      return [
        .track(
          eventType: "Download Failed",
          eventProperties: podcast.params.merging([
            "reason": "not_enough_storage", "required_bytes": .int(podcast.sizeBytes),
            "available_bytes": .int(available),
          ]))
      ]
    case .event:
      return []
    case .state(let state):
      switch state {
      case .player: return []  // the player's mapping
      case .remoteNotificationAuthorized(let authorized):
        return [.identify(userProperties: ["notifications": .bool(authorized)])]
      case .favorites(let podcasts):
        return [.identify(userProperties: ["favorites_count": .int(podcasts.count)])]
      }
    case .timedStart(.player), .timedStop(.player, _), .timedCancel(.player, _):
      return []  // the player's mapping
    case .timedStart, .timedStop, .timedCancel:
      return Amplitude.timedEvent(tag)
    case .sessionStart(let session), .sessionUpdate(let session):
      return [.identify(userProperties: SessionBridge.properties(of: session))]
    case .sessionEnd:
      return []
    case .identify(let user):
      return user.traits.isEmpty
        ? [.setUserId(user.id)] : [.setUserId(user.id), .identify(userProperties: user.traits)]
    case .reset:
      return [.reset]
    case .consent(let change):
      return change.scope == .category(.analytics) ? [.setOptOut(!change.granted)] : []
    }
  }
}
