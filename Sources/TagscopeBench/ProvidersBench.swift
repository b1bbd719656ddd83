import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo

/// Issue 3's figure: what checking the providers' documented rules adds to `send`, with the three
/// largest rule sets registered (Firebase, Amplitude, Segment, with the demo's real mappings) and
/// an observer appending every dispatch to an array (the hub only checks rules when observed).
/// Both hubs run side by side in the same process, alternately, best of several runs each.
enum ProvidersBench {
  static let providers: [ProviderID] = [Firebase.id, Amplitude.id, Segment.id]

  static func makeHub(checksRules: Bool) throws -> (AnalyticsHub<PodcastTaxonomy>, ArraySink) {
    let hub = try AnalyticsHub(
      configuration: HubConfiguration(checksProviderRules: checksRules),
      providers: PodcastMappings.providers(including: providers))
    let sink = ArraySink()
    hub.addObserver(sink)
    hub.startSession(properties: ["voiceOver": false])
    return (hub, sink)
  }

  /// A podcast app's traffic: screens, plays and pauses from several screens, downloads,
  /// favourites, a player error, and the demo's deliberate Firebase bug (a 54-character event
  /// name) once every twelve sends, so the checked run also builds violations.
  static func workload(_ hub: AnalyticsHub<PodcastTaxonomy>, iterations: Int) {
    let catalogue = Podcast.catalogue
    for index in 0..<iterations {
      let podcast = catalogue[index % catalogue.count]
      switch index % 12 {
      case 0: hub.send(screen: .podcasts)
      case 1: hub.send(userAction: .playPodcast(podcast))
      case 2: hub.send(userAction: .pausePodcast(podcast))
      case 3: hub.send(screen: .favorites)
      case 4: hub.send(userAction: .playPodcast(podcast))
      case 5: hub.send(userAction: .addPodcastToFavorite(podcast))
      case 6: hub.send(screen: .downloads)
      case 7: hub.send(userAction: .downloadPodcast(podcast))
      case 8: hub.send(event: .playerDidFail(podcast, error: "timeout"))
      case 9: hub.send(screen: .podcastPlayer)
      // The demo's deliberate Firebase bug: one send in twelve breaks a rule.
      case 10: hub.send(userAction: .removePodcastFromFavorite(podcast))
      default: hub.send(state: .autoPlay(index % 24 == 11))
      }
    }
    hub.flush()
  }

  static func run(_ report: inout BenchReport) throws {
    let iterations = 100_000
    let (checked, checkedSink) = try makeHub(checksRules: true)
    let (unchecked, uncheckedSink) = try makeHub(checksRules: false)
    workload(checked, iterations: 1_000)
    workload(unchecked, iterations: 1_000)

    var withRules = Double.infinity
    var withoutRules = Double.infinity
    for _ in 0..<5 {
      uncheckedSink.reset(capacity: iterations)
      withoutRules = min(withoutRules, measureSeconds { workload(unchecked, iterations: iterations) })
      checkedSink.reset(capacity: iterations)
      withRules = min(withRules, measureSeconds { workload(checked, iterations: iterations) })
    }
    let violations = checkedSink.dispatches.reduce(0) {
      $0 + $1.outcomes.reduce(0) { $0 + $1.violations.count }
    }
    uncheckedSink.reset(capacity: 0)
    checkedSink.reset(capacity: 0)

    report.add(
      "providers.rules.overhead", withRules / withoutRules, unit: "x",
      baseline: "same sends, HubConfiguration(checksProviderRules: false)", atMost: 1.3)
    report.add(
      "providers.send.checked.rate", Double(iterations) / withRules, unit: "sends/s",
      baseline: "firebase+amplitude+segment, observer appending")
    report.add(
      "providers.rules.violations", Double(violations), unit: "violations", baseline: "\(iterations) sends")

    // The generic path (`tagscope listen`, the plan validator): recorded calls checked by id.
    let recorded = sampleCalls()
    let rounds = 20_000
    let genericTime = bestOf(3) {
      var count = 0
      for _ in 0..<rounds {
        for (provider, calls) in recorded {
          count += ProviderRules.check(provider: provider, calls: calls).count
        }
      }
      blackHole(count)
    }
    report.add(
      "providers.rules.generic.rate", Double(rounds * recorded.count) / genericTime, unit: "checks/s",
      baseline: "ProviderRules.check on recorded calls")
  }

  /// One recorded call list per provider, as `tagscope listen` would hand them over.
  static func sampleCalls() -> [(String, [CallDescription])] {
    let podcast = Podcast.catalogue[0]
    let params: Properties = [
      "podcast_title": .string(podcast.title), "podcast_duration": .int(podcast.duration),
    ]
    return [
      (
        "firebase",
        [CallDescription(method: "logEvent", name: "play_podcast_from_favorites", parameters: params)]
      ),
      ("amplitude", [CallDescription(method: "track", name: "Play Podcast", parameters: params)]),
      ("segment", [CallDescription(method: "track", name: "Play Podcast", parameters: params)]),
      ("mixpanel", [CallDescription(method: "track", name: "Play Podcast", parameters: params)]),
      ("braze", [CallDescription(method: "logCustomEvent", name: "podcast_played", parameters: params)]),
    ]
  }
}
