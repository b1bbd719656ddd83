import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

extension PodcastMappings {
  static func pianoCalls(for tag: Tag<PodcastTaxonomy>, in context: HubContext<PodcastTaxonomy>)
    -> [PianoCall]
  {
    switch tag {
    case .screen(let screen):
      return [.pageDisplay(TagNaming.snakeCase(screen.rawValue), chapters: [screen.chapter])]
    case .userAction(.player(.playPodcast(let podcast))) where context.currentScreen == .favorites:
      // Deliberate bug: the plan says playPodcast must not reach Piano.
      return [.click(.action, "play_podcast", chapters: ["favorites"], podcast.params)]
    case .userAction(.downloadPodcast(let podcast)):
      return [.click(.download, "download_podcast", chapters: ["library"], podcast.params)]
    case .userAction(.addPodcastToFavorite(let podcast)):
      return [.click(.action, "add_favorite", chapters: ["library"], podcast.params)]
    case .userAction(.removePodcastFromFavorite(let podcast)):
      return [.click(.action, "remove_favorite", chapters: ["library"], podcast.params)]
    case .userAction(.openPodcast(let podcast)):
      return [.click(.navigation, "open_podcast", chapters: ["catalogue"], podcast.params)]
    case .userAction:
      return []
    case .event:
      return []
    case .sessionStart(let session), .sessionUpdate(let session):
      return [.setProperty(key: "session_state", value: .string(session.state.rawValue), persistent: true)]
    case .identify(let user):
      return [.setUser(id: user.id, category: user.traits["plan"]?.stringValue)]
    case .reset:
      return [.deleteUser]
    case .consent(let change):
      guard change.scope == .category(.analytics) else { return [] }
      return [.privacySetMode(change.granted ? .optin : .optout)]
    case .state, .timedStart, .timedStop, .timedCancel, .sessionEnd:
      return []
    }
  }
}

extension PodcastScreen {
  /// Piano's first chapter for the screen.
  var chapter: String {
    switch self {
    case .podcasts, .podcastPlayer: return "catalogue"
    case .favorites, .downloads: return "library"
    case .login, .settings, .onboarding: return "account"
    }
  }
}
