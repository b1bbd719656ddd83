import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

extension PodcastMappings {
  static func segmentCalls(for tag: Tag<PodcastTaxonomy>, in context: HubContext<PodcastTaxonomy>)
    -> [SegmentCall]
  {
    switch tag {
    case .screen(let screen):
      return [.screen(title: TagNaming.titleCase(screen.rawValue), category: screen.chapter, properties: [:])]
    case .userAction(let action):
      return [.track(name: TagNaming.titleCase(action.name), properties: action.properties)]
    case .timedStart(.player), .timedStop(.player, _), .timedCancel(.player, _):
      return []  // the player's mapping
    case .timedStart, .timedStop, .timedCancel:
      return Segment.timedEvent(tag)
    case .identify(let user):
      return [.identify(userId: user.id, traits: user.traits)]
    case .reset:
      return [.reset]
    default:
      return []
    }
  }

  static func mixpanelCalls(for tag: Tag<PodcastTaxonomy>, in context: HubContext<PodcastTaxonomy>)
    -> [MixpanelCall]
  {
    switch tag {
    case .screen(let screen):
      return [.track(event: "Screen Viewed", properties: ["screen": .string(screen.rawValue)])]
    case .userAction(let action):
      return [.track(event: TagNaming.titleCase(action.name), properties: action.properties)]
    case .state(let state):
      return [
        .peopleSet([
          TagNaming.snakeCase(state.name): state.properties["value"] ?? state.properties["count"] ?? .null
        ])
      ]
    case .timedStart(.player), .timedStop(.player, _), .timedCancel(.player, _):
      return []  // the player's mapping
    case .timedStart, .timedStop, .timedCancel:
      return Mixpanel.timedEvent(tag)
    case .sessionStart(let session), .sessionUpdate(let session):
      return [.registerSuperProperties(SessionBridge.properties(of: session))]
    case .identify(let user):
      return [.identify(distinctId: user.id)]
    case .reset:
      return [.reset]
    case .consent(let change) where change.scope == .category(.analytics):
      return [.setOptOut(!change.granted)]
    default:
      return []
    }
  }
}
