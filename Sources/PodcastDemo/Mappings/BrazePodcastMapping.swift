import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

extension PodcastMappings {
  static func brazeCalls(for tag: Tag<PodcastTaxonomy>, in context: HubContext<PodcastTaxonomy>)
    -> [BrazeCall]
  {
    switch tag {
    case .userAction(.downloadPodcast(let podcast)):
      return [.logCustomEvent(name: "podcast_downloaded", properties: podcast.params)]
    case .userAction(.addPodcastToFavorite(let podcast)):
      return [.logCustomEvent(name: "favorite_added", properties: podcast.params)]
    case .userAction(.removePodcastFromFavorite(let podcast)):
      return [.logCustomEvent(name: "favorite_removed", properties: podcast.params)]
    case .userAction:
      return []
    case .event(.notEnoughStorageSpaceForDownload(let podcast, let available)):
      // Deliberate bug: Braze removes property keys starting with "$".
      return [
        .logCustomEvent(
          name: "download_failed",
          properties: podcast.params.merging([
            "$required_bytes": .int(podcast.sizeBytes), "available_bytes": .int(available),
          ]))
      ]
    case .event:
      return []
    case .state(let state):
      switch state {
      case .player: return []  // the player's mapping
      case .remoteNotificationAuthorized(let authorized):
        return [.setCustomAttribute(key: "push_authorized", value: .bool(authorized))]
      case .favorites(let podcasts):
        return [.setCustomAttribute(key: "favorites_count", value: .int(podcasts.count))]
      }
    case .timedStart(.player), .timedStop(.player, _), .timedCancel(.player, _):
      return []  // the player's mapping
    case .timedStart, .timedStop, .timedCancel:
      return Braze.timedEvent(tag)
    case .sessionStart(let session), .sessionUpdate(let session):
      return SessionBridge.properties(of: session).map {
        .setCustomAttribute(key: TagNaming.snakeCase($0.key), value: $0.value)
      }
    case .identify(let user):
      return [.changeUser(userId: user.id)]
    case .screen, .sessionEnd, .reset, .consent:
      return []
    }
  }
}
