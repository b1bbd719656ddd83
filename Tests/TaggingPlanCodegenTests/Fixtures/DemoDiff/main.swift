// The demo's traffic recorded twice (CodegenRoundTripTests copies this file into its temporary
// package as the DemoDiff executable): once through the demo's hand-written mappings
// (`PodcastMappings`), once through the mappings generated from its plan (`PodcastsMappings`).
//
// Both runs are the same seeded simulator, opening with the tour that reaches each of the demo's
// deliberate bugs, on the same kind of hub (the demo's taxonomy), so the two recordings hold the
// same tags with the same properties and contexts: only what each provider received can differ.
// The generated mappings take the generated taxonomy's tags, so each provider's mapping converts
// the demo's tag to the plan's tag of the same name with the same properties (`planTag`) and the
// hub's context to the same screens, session and user (`planContext`), then asks the generated
// mapping. The lifecycle tags (sessions, identity, consent) are planned by no plan section: an app
// keeps its own mapping for them, so both runs map them with the demo's.

import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import Podcasts
import TagscopeInspector

/// The plan's tag for a demo tag: the same name and properties; `nil` for a lifecycle tag.
func planTag(_ tag: Tag<PodcastTaxonomy>) -> Tag<PodcastsTaxonomy>? {
  switch tag {
  case .screen(let screen): return .screen(planScreen(screen))
  case .userAction(let action): return .userAction(planAction(action))
  case .event(let event): return .event(planEvent(event))
  case .state(let state): return .state(planState(state))
  case .timedStart(let timed): return .timedStart(planTimed(timed))
  case .timedStop(let timed, let duration): return .timedStop(planTimed(timed), duration: duration)
  case .timedCancel(let timed, let duration): return .timedCancel(planTimed(timed), duration: duration)
  case .sessionStart, .sessionUpdate, .sessionEnd, .identify, .reset, .consent: return nil
  }
}

func planScreen(_ screen: PodcastScreen) -> PodcastsScreen {
  switch screen {
  case .podcasts: return .podcasts
  case .podcastPlayer: return .podcastPlayer
  case .favorites: return .favorites
  case .downloads: return .downloads
  case .login: return .login
  case .settings: return .settings
  case .onboarding: return .onboarding
  }
}

func planAction(_ action: PodcastAction) -> PodcastsAction {
  switch action {
  case .player(.playPodcast(let podcast)):
    return .playPodcast(podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  case .player(.pausePodcast(let podcast)):
    return .pausePodcast(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  case .downloadPodcast(let podcast):
    return .downloadPodcast(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration,
      podcastSize: podcast.sizeBytes)
  case .deletePodcast(let podcast):
    return .deletePodcast(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  case .addPodcastToFavorite(let podcast):
    return .addPodcastToFavorite(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  case .removePodcastFromFavorite(let podcast):
    return .removePodcastFromFavorite(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  case .login(let method): return .login(method: method)
  case .logout: return .logout
  case .openPodcast(let podcast):
    // `item_id` is no property and nothing the hub keeps: the app passes it (the podcast's id).
    return .openPodcast(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration,
      itemId: podcast.id)
  }
}

func planEvent(_ event: PodcastEvent) -> PodcastsEvent {
  switch event {
  case .player(.playerDidLoad(let podcast)):
    return .playerDidLoad(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  case .player(.playerDidPlay(let podcast)):
    return .playerDidPlay(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  case .player(.playerDidStop(let podcast, let position)):
    return .playerDidStop(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration,
      position: position)
  case .player(.playerDidFail(let podcast, let error)):
    return .playerDidFail(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration, error: error)
  case .notEnoughStorageSpaceForDownload(let podcast, let available):
    return .notEnoughStorageSpaceForDownload(
      podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration,
      requiredBytes: podcast.sizeBytes, availableBytes: available)
  }
}

func planState(_ state: PodcastState) -> PodcastsState {
  switch state {
  case .player(.autoPlay(let enabled)): return .autoPlay(value: enabled)
  case .favorites(let podcasts):
    // Firebase's `value` and Amplitude's `favorites_count` are no property of the plan's state:
    // the app passes them (the count, as the demo's mappings send it).
    return .favorites(
      count: podcasts.count, titles: podcasts.map { .string($0.title) }, value: .int(podcasts.count),
      favoritesCount: podcasts.count)
  case .remoteNotificationAuthorized(let authorized): return .remoteNotificationAuthorized(value: authorized)
  }
}

func planTimed(_ timed: PodcastTimedEvent) -> PodcastsTimedEvent {
  switch timed {
  case .onboarding: return .onboarding
  case .player(.listening(let podcast)):
    return .listening(podcastId: podcast.id, podcastTitle: podcast.title, podcastDuration: podcast.duration)
  }
}

/// The same context in the plan's screens.
func planContext(_ context: HubContext<PodcastTaxonomy>) -> HubContext<PodcastsTaxonomy> {
  HubContext(
    history: context.history.map(planScreen), session: context.session, user: context.user,
    timedEvents: context.timedEvents, consent: context.consent)
}

/// The generated mapping for the plan's tags, the demo's own for the lifecycle tags.
func bridged<Call: ProviderCall>(
  _ generated: @escaping Mapping<PodcastsTaxonomy, Call>, lifecycle: @escaping Mapping<PodcastTaxonomy, Call>
) -> Mapping<PodcastTaxonomy, Call> {
  { tag, context in
    guard let planned = planTag(tag) else { return lifecycle(tag, context) }
    return generated(planned, planContext(context))
  }
}

/// The demo's opening tour and the journeys after it, `steps` simulator steps, recorded to `name`.
func record(_ name: String, providers: ProviderSet<PodcastTaxonomy>, steps: Int) throws {
  let url = URL(fileURLWithPath: CommandLine.arguments[1]).appendingPathComponent(name)
  let inspector = Inspector(sinks: [try Recorder(url: url)])
  let clock = ManualClock(start: DemoHub.seededEpoch)
  let hub = try DemoHub.make(providers: providers, clock: clock, seed: 7)
  hub.addObserver(inspector)
  let simulator = PodcastSimulator(hub: hub, seed: 7, tour: true)
  for _ in 0..<steps { clock.advance(by: simulator.step()) }
  hub.flush()
  inspector.flush()
  inspector.close()
}

let steps = Int(CommandLine.arguments[2]) ?? 24
try record("demo-hand.jsonl", providers: PodcastMappings.providers(), steps: steps)
let environment = EnvironmentSwitch()
let generated = ProviderSet<PodcastTaxonomy>([
  Firebase.provider(
    environment: environment, adapter: DiscardingAdapter<FirebaseCall>(),
    mapping: bridged(PodcastsMappings.firebase, lifecycle: PodcastMappings.firebase)),
  Amplitude.provider(
    environment: environment, adapter: DiscardingAdapter<AmplitudeCall>(),
    mapping: bridged(PodcastsMappings.amplitude, lifecycle: PodcastMappings.amplitude)),
  Piano.provider(
    environment: environment, adapter: DiscardingAdapter<PianoCall>(),
    mapping: bridged(PodcastsMappings.piano, lifecycle: PodcastMappings.piano)),
  Braze.provider(
    environment: environment, adapter: DiscardingAdapter<BrazeCall>(),
    mapping: bridged(PodcastsMappings.braze, lifecycle: PodcastMappings.braze)),
  FPTI.provider(
    environment: environment, adapter: DiscardingAdapter<FPTICall>(),
    mapping: bridged(PodcastsMappings.fpti, lifecycle: PodcastMappings.fpti)),
])
try record("demo-generated.jsonl", providers: generated, steps: steps)
