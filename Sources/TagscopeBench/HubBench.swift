import AnalyticsHub
import Foundation
import PodcastDemo

/// Issue 2's figures: hub overhead against direct mapping calls, observed throughput, and
/// 8 threads × 100,000 sends.
enum HubBench {
  struct Call: ProviderCall {
    var method: String { "logEvent" }
    var name: String?
    var parameters: Properties
  }

  /// A mapping returning one call with 3 parameters, as the figure prescribes.
  static func mapping(prefix: String) -> Mapping<PodcastTaxonomy, Call> {
    { tag, context in
      guard case .userAction(.playPodcast(let podcast)) = tag else { return [] }
      let screen = context.currentScreen?.name ?? "unknown"
      return [
        Call(
          name: prefix + "_play",
          parameters: [
            "podcast_title": .string(podcast.title), "podcast_duration": .int(podcast.duration),
            "screen": .string(screen),
          ])
      ]
    }
  }

  static let prefixes = ["firebase", "amplitude", "piano"]

  static func makeHub() throws -> AnalyticsHub<PodcastTaxonomy> {
    let providers = ProviderSet(
      prefixes.map {
        Provider<PodcastTaxonomy>(
          id: ProviderID(rawValue: $0), adapter: DiscardingAdapter<Call>(), mapping: mapping(prefix: $0))
      })
    let hub = try AnalyticsHub(providers: providers)
    hub.send(screen: .favorites)
    return hub
  }

  static func run(_ report: inout BenchReport) throws {
    let iterations = 1_000_000
    let podcast = Podcast.catalogue[0]
    let action = PodcastAction.playPodcast(podcast)

    // Baseline: the same three mapping functions and adapter deliveries, called directly.
    let mappings = prefixes.map { mapping(prefix: $0) }
    let adapter = DiscardingAdapter<Call>()
    let context = HubContext<PodcastTaxonomy>(history: [.favorites])
    let direct = bestOf(3) {
      for _ in 0..<iterations {
        for map in mappings {
          for call in map(.userAction(action), context) { adapter.deliver(call) }
        }
      }
    }

    let hub = try makeHub()
    let viaHub = bestOf(3) {
      for _ in 0..<iterations { hub.send(userAction: action) }
    }
    report.add("hub.send.ratio", viaHub / direct, unit: "x", baseline: "direct mapping calls", atMost: 1.5)
    report.add("hub.send.rate", Double(iterations) / viaHub, unit: "sends/s", baseline: "no observer")

    // With an observer that appends every dispatch to an in-memory array.
    let observed = try makeHub()
    let sink = ArraySink()
    observed.addObserver(sink)
    let observedTime = bestOf(3) {
      sink.reset(capacity: iterations)
      for _ in 0..<iterations { observed.send(userAction: action) }
    }
    report.add(
      "hub.send.observed.rate", Double(iterations) / observedTime, unit: "sends/s",
      baseline: "observer appending to an array", atLeast: 500_000)

    // 8 threads × 100,000 sends: every dispatch observed exactly once, per-thread order kept.
    let threaded = try makeHub()
    let threadSink = ArraySink()
    threaded.addObserver(threadSink)
    threadSink.reset(capacity: 800_000)
    let threads = 8
    let perThread = 100_000
    let threadedTime = measureSeconds {
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let tagged = Podcast(
          id: "t\(thread)", title: "thread \(thread)", duration: 0, category: "", sizeBytes: 0)
        for index in 0..<perThread {
          var copy = tagged
          copy.duration = index
          threaded.send(userAction: .playPodcast(copy))
        }
      }
    }
    let lost = threadSink.verifyPerThreadOrder(threads: threads, perThread: perThread)
    report.add(
      "hub.threads.rate", Double(threads * perThread) / threadedTime, unit: "sends/s",
      baseline: "8 threads × 100,000")
    report.add(
      "hub.threads.misordered_or_lost", Double(lost), unit: "dispatches", baseline: "8 threads × 100,000",
      atMost: 0)
  }
}

/// An observer appending every dispatch to an in-memory array.
final class ArraySink: HubObserver, @unchecked Sendable {
  private(set) var dispatches: [Dispatch] = []

  func reset(capacity: Int) {
    dispatches = []
    dispatches.reserveCapacity(capacity)
  }

  func hubDidDispatch(_ dispatch: Dispatch) { dispatches.append(dispatch) }

  /// Counts dispatches that are missing, duplicated or out of per-thread order.
  func verifyPerThreadOrder(threads: Int, perThread: Int) -> Int {
    var next = [Int](repeating: 0, count: threads)
    var problems = 0
    for dispatch in dispatches {
      guard let id = dispatch.properties["podcast_id"]?.stringValue, let thread = Int(id.dropFirst()),
        let index = dispatch.properties["podcast_duration"]?.intValue, thread < threads
      else { continue }
      if index != next[thread] { problems += 1 }
      next[thread] = index + 1
    }
    for count in next where count != perThread { problems += abs(perThread - count) }
    return problems
  }
}
