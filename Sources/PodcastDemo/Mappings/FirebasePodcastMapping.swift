import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

extension PodcastMappings {
  static func firebaseCalls(for tag: Tag<PodcastTaxonomy>, in context: HubContext<PodcastTaxonomy>)
    -> [FirebaseCall]
  {
    let screen = context.currentScreen
    switch tag {
    case .screen(let screen):
      return [.screenView(name: screen.trackedName, screenClass: screen.screenClass)]
    case .userAction(let action):
      switch action {
      case .player(.playPodcast(let podcast)):
        return [
          .logEvent(
            "play_podcast_from_" + (screen.map { TagNaming.snakeCase($0.rawValue) } ?? "unknown"),
            podcast.params)
        ]
      case .player(.pausePodcast(let podcast)) where screen == .favorites:
        // Deliberate bug: podcast_title is missing from pause on Favorites.
        return [.logEvent("pause_podcast_from_favorites", ["podcast_duration": .int(podcast.duration)])]
      case .player(.pausePodcast(let podcast)):
        return [.logEvent("pause_podcast", podcast.params)]
      case .downloadPodcast(let podcast):
        return [
          .logEvent("download_podcast", podcast.params.merging(["podcast_size": .int(podcast.sizeBytes)]))
        ]
      case .deletePodcast(let podcast):
        return [.logEvent("delete_podcast", podcast.params)]
      case .addPodcastToFavorite(let podcast):
        return [.logEvent("add_podcast_to_favorites", podcast.params)]
      case .removePodcastFromFavorite(let podcast) where screen == .podcastPlayer:
        // Deliberate bug: a 54-character event name (Firebase allows 40).
        return [.logEvent("remove_podcast_from_favorites_on_podcast_player_screen", podcast.params)]
      case .removePodcastFromFavorite(let podcast):
        return [.logEvent("remove_podcast_from_favorites", podcast.params)]
      case .login(let method):
        return [.logEvent("login", ["method": .string(method)])]
      case .logout:
        return [.logEvent("logout", [:])]
      case .openPodcast(let podcast):
        return [.logEvent("select_content", ["content_type": "podcast", "item_id": .string(podcast.id)])]
      }
    case .event(let event):
      switch event {
      case .notEnoughStorageSpaceForDownload(let podcast, let available):
        return [
          .logEvent(
            "download_failed_storage",
            podcast.params.merging([
              "required_bytes": .int(podcast.sizeBytes), "available_bytes": .int(available),
            ]))
        ]
      case .player:
        return []  // the player's mapping
      }
    case .state(let state):
      switch state {
      case .player: return []  // the player's mapping
      case .remoteNotificationAuthorized(let authorized):
        return [.setUserProperty(String(authorized), forName: "notifications_enabled")]
      case .favorites(let podcasts):
        return [.setUserProperty(String(podcasts.count), forName: "favorites_count")]
      }
    case .timedStart(.player), .timedStop(.player, _), .timedCancel(.player, _):
      return []  // the player's mapping
    case .timedStart, .timedStop, .timedCancel:
      return Firebase.timedEvent(tag)
    case .sessionStart(let session), .sessionUpdate(let session):
      return Firebase.sessionUserProperties(session)
    case .sessionEnd:
      return []
    case .identify(let user):
      return [.setUserID(user.id)]
    case .reset:
      return [.setUserID(nil)]
    case .consent(let change):
      guard change.scope == .category(.analytics) else { return [] }
      let status: FirebaseConsent.Status = change.granted ? .granted : .denied
      return [
        .setConsent(FirebaseConsent(analyticsStorage: status)),
        .setAnalyticsCollectionEnabled(change.granted),
      ]
    }
  }
}
