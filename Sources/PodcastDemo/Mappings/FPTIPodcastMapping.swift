import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

extension PodcastMappings {
  static func fptiCalls(for tag: Tag<PodcastTaxonomy>, in context: HubContext<PodcastTaxonomy>) -> [FPTICall]
  {
    switch tag {
    case .screen(let screen):
      return [FPTI.event(tag, name: screen.trackedName, category: screen.chapter)]
    case .userAction(let action):
      return [
        FPTI.event(
          tag, name: TagNaming.snakeCase(action.name), category: context.currentScreen?.chapter ?? "app")
      ]
    case .event(.notEnoughStorageSpaceForDownload):
      return [FPTI.event(tag, name: TagNaming.snakeCase(tag.name), category: "player")]
    default:
      return []
    }
  }
}
