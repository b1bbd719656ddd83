import AnalyticsHub
import Foundation
import PodcastDemo
import TagscopeRecording
import TagscopeTimeline

// Helpers the Inspector and Timeline tests share: a temporary directory, the podcast hub and its
// tour, and a recording read back.

/// A temporary directory removed when the test ends.
public final class TemporaryDirectory {
  /// The directory.
  public let url: URL

  /// A new, empty directory.
  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("tagscope-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// A file in it.
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// A call type for test providers.
public struct TestCall: ProviderCall {
  public var method: String
  public var name: String?
  public var parameters: Properties

  /// A call.
  public init(method: String, name: String?, parameters: Properties) {
    self.method = method
    self.name = name
    self.parameters = parameters
  }
}

/// A podcast hub with three providers (one sends, one drops all but screens, one needs marketing
/// consent) and a manual clock.
public func makePodcastHub(clock: ManualClock = ManualClock()) throws -> AnalyticsHub<PodcastTaxonomy> {
  let firebase = Provider<PodcastTaxonomy>(id: "firebase", adapter: DiscardingAdapter<TestCall>()) {
    tag, context in
    [
      TestCall(
        method: "logEvent", name: tag.name,
        parameters: tag.properties.merging(["screen": .string(context.currentScreen?.name ?? "")]))
    ]
  }
  let piano = Provider<PodcastTaxonomy>(id: "piano", adapter: DiscardingAdapter<TestCall>()) { tag, _ in
    guard case .screen(let screen) = tag else { return [] }
    return [TestCall(method: "sendPage", name: screen.name, parameters: [:])]
  }
  let braze = Provider<PodcastTaxonomy>(
    id: "braze", category: .marketing, adapter: DiscardingAdapter<TestCall>()
  ) {
    tag, _ in [TestCall(method: "logCustomEvent", name: tag.name, parameters: tag.properties)]
  }
  return try AnalyticsHub(
    configuration: HubConfiguration(clock: clock.hubClock, makeSessionID: { "s-1" }),
    providers: [firebase, piano, braze])
}

/// Drives a hub through a deterministic tour of the podcast app: `steps` tags of every kind.
public func drivePodcastTour(_ hub: AnalyticsHub<PodcastTaxonomy>, clock: ManualClock, steps: Int) {
  let podcasts = Podcast.catalogue
  for step in 0..<steps {
    clock.advance(by: 0.037)
    let podcast = podcasts[step % podcasts.count]
    switch step % 16 {
    case 0: hub.send(screen: .podcasts)
    case 1: hub.send(userAction: .playPodcast(podcast))
    case 2: hub.start(timedEvent: .listening(podcast))
    case 3: hub.send(event: .playerDidPlay(podcast))
    case 4: hub.send(screen: .favorites)
    case 5: hub.send(userAction: .addPodcastToFavorite(podcast))
    case 6: hub.stop(timedEvent: .listening(podcast))
    case 7:
      hub.startSession(
        user: AnalyticsUser(id: "u-\(step % 5)"), properties: ["voiceOver": .bool(step % 2 == 0)])
    case 8: hub.setConsent(step % 32 == 8, for: .category(.marketing))
    case 9: hub.send(state: .autoPlay(step % 3 == 0))
    case 10: hub.send(screen: .podcastPlayer)
    case 11: hub.send(event: .playerDidFail(podcast, error: "timeout \"\(step)\"\n"))
    case 12: hub.updateSession(properties: ["notifications": .bool(true)])
    case 13: hub.send(userAction: .downloadPodcast(podcast))
    case 14: hub.identify(AnalyticsUser(id: "u-\(step)"))
    default: hub.stop(timedEvent: .onboarding)
    }
  }
  hub.flush()
}

/// Every entry of a recording, split by kind.
public struct ReadBack {
  public var header: RecordingHeader
  public var records: [Record] = []
  public var locations: [LineLocation] = []
  public var markers: [DropMarker] = []
  public var problems: [LineProblem] = []

  /// Reads the recording at `path`.
  public init(path: String) throws {
    let reader = try RecordingReader(path: path)
    header = reader.header
    while let entry = try reader.next() {
      switch entry {
      case .record(let record, let location):
        records.append(record)
        locations.append(location)
      case .dropped(let marker, _): markers.append(marker)
      case .problem(let problem): problems.append(problem)
      }
    }
  }
}
