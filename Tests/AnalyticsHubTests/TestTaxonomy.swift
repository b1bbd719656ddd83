import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo

/// A Firebase-like call type, as an app would map its tags to (seed 000's ThirdPartyTrackerEvent).
enum TrackerCall: ProviderCall, Equatable {
  case screen(String)
  case event(String, Properties)
  case userProperty(String, String?)
  case userID(String?)

  var method: String {
    switch self {
    case .screen: return "trackScreen"
    case .event: return "trackEvent"
    case .userProperty: return "setUserProperty"
    case .userID: return "setUserID"
    }
  }

  var name: String? {
    switch self {
    case .screen(let name), .event(let name, _), .userProperty(let name, _): return name
    case .userID: return nil
    }
  }

  var parameters: Properties {
    switch self {
    case .screen: return [:]
    case .event(_, let parameters): return parameters
    case .userProperty(_, let value): return ["value": value.map(PropertyValue.string) ?? .null]
    case .userID(let id): return ["user_id": id.map(PropertyValue.string) ?? .null]
    }
  }
}

/// Seed 000's mapping, typed: screens podcasts and player only; play from podcasts vs favorites.
let trackerMapping: Mapping<PodcastTaxonomy, TrackerCall> = { tag, context in
  switch tag {
  case .screen(.podcasts): return [.screen("show_podcasts")]
  case .screen(.podcastPlayer): return [.screen("show_podcast_player")]
  case .userAction(.player(.playPodcast(let podcast))):
    let parameters: Properties = [
      "podcast_title": .string(podcast.title), "podcast_duration": .int(podcast.duration),
    ]
    switch context.currentScreen {
    case .podcasts: return [.event("play_podcast_from_podcasts", parameters)]
    case .favorites: return [.event("play_podcast_from_favorites", parameters)]
    default: return []
    }
  case .userAction(.player(.pausePodcast)): return [.event("pause_podcast", [:])]
  case .timedStart(let timed): return [.event(timed.name.uppercased() + "_START", [:])]
  case .timedStop(let timed, let duration):
    return [.event(timed.name.uppercased() + "_STOP", ["duration": .double(duration)])]
  case .identify(let user): return [.userID(user.id)]
  case .reset: return [.userID(nil)]
  case .sessionStart(let session), .sessionUpdate(let session):
    return session.properties.map { .userProperty($0.key, $0.value.displayText) }
  default: return []
  }
}

let swiftBySundell = Podcast.catalogue[0]

struct DeliveryError: Error, CustomStringConvertible {
  var description: String { "SDK not configured" }
}

func makeHub(
  _ providers: ProviderSet<PodcastTaxonomy>, clock: ManualClock = ManualClock(), historyLimit: Int = 5,
  defaultConsent: Bool = true, inlineDeliveryLimit: Double = HubConfiguration().inlineDeliveryLimit
) throws -> (AnalyticsHub<PodcastTaxonomy>, DispatchRecorder) {
  let counter = Counter()
  let hub = try AnalyticsHub(
    configuration: HubConfiguration(
      historyLimit: historyLimit, defaultConsent: defaultConsent, clock: clock.hubClock,
      makeSessionID: { "s-\(counter.next())" }, inlineDeliveryLimit: inlineDeliveryLimit),
    providers: providers)
  let recorder = DispatchRecorder()
  hub.addObserver(recorder)
  return (hub, recorder)
}

/// A thread-safe counter for deterministic session identifiers.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value
  }
}

/// Waits until `condition` holds; returns whether it does. The deadline only ends a wait that
/// would never end (a bug): no test waits for time to pass.
@discardableResult
func eventually(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now() + timeout
  while !condition() {
    if DispatchTime.now() >= deadline { return condition() }
    usleep(1_000)
  }
  return true
}
