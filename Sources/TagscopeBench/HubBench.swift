import AnalyticsHub
import Foundation
import PodcastDemo

/// Issues 2 and 11: hub overhead against direct mapping calls, what an observer keeps of the
/// unobserved rate, 8 threads × 100,000 sends, and send latency beside a 50 ms adapter.
enum HubBench {
  struct Call: ProviderCall {
    var method: String { "logEvent" }
    var name: String?
    var parameters: Properties
  }

  /// A mapping returning one call with 3 parameters, as the figure prescribes.
  static func mapping(prefix: String) -> Mapping<PodcastTaxonomy, Call> {
    { tag, context in
      guard case .userAction(.player(.playPodcast(let podcast))) = tag else { return [] }
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

    // Baseline: the same three mapping functions and adapter deliveries, called directly. Five
    // rounds of direct, hub and observed hub (an observer appending every dispatch to an array),
    // each hub run timed to the end of delivery (`flush`); ratios are taken within a round, so a
    // noisy machine moves both sides of each ratio together.
    let mappings = prefixes.map { mapping(prefix: $0) }
    let adapter = DiscardingAdapter<Call>()
    let context = HubContext<PodcastTaxonomy>(history: [.favorites])
    let hub = try makeHub()
    let observed = try makeHub()
    let sink = ArraySink()
    observed.addObserver(sink)
    var ratios: [Double] = []
    var keptShares: [Double] = []
    var rates: [Double] = []
    var observedRates: [Double] = []
    for _ in 0..<5 {
      let direct = measureSeconds {
        for _ in 0..<iterations {
          for map in mappings {
            for call in map(.userAction(action), context) { adapter.deliver(call) }
          }
        }
      }
      let plain = measureSeconds {
        for _ in 0..<iterations { hub.send(userAction: action) }
        hub.flush()
      }
      sink.reset(capacity: iterations)
      let watched = measureSeconds {
        for _ in 0..<iterations { observed.send(userAction: action) }
        observed.flush()
      }
      ratios.append(plain / direct)
      keptShares.append(plain / watched)
      rates.append(Double(iterations) / plain)
      observedRates.append(Double(iterations) / watched)
    }
    ratios.sort()
    keptShares.sort()
    report.add(
      "hub.send.ratio", ratios[2], unit: "x", baseline: "direct mapping calls, median of 5 paired runs",
      atMost: 1.5)
    report.add("hub.send.ratio.min", ratios[0], unit: "x", baseline: "same runs")
    report.add("hub.send.ratio.max", ratios[4], unit: "x", baseline: "same runs")
    report.add("hub.send.rate", rates.sorted()[2], unit: "sends/s", baseline: "median of 5, no observer")
    report.add(
      "hub.observed.kept.median", keptShares[2], unit: "×",
      baseline: "observed rate / unobserved rate, 5 paired runs", atLeast: 0.4)
    report.add("hub.observed.kept.min", keptShares[0], unit: "×", baseline: "same runs")
    report.add("hub.observed.kept.max", keptShares[4], unit: "×", baseline: "same runs")
    report.add(
      "hub.send.observed.rate", observedRates.sorted()[2], unit: "sends/s",
      baseline: "median of 5, observer appending to an array")

    try threaded(&report)
    try slowAdapter(&report)
  }

  /// 8 threads × 100,000 sends: every dispatch observed exactly once, per-thread order kept.
  static func threaded(_ report: inout BenchReport) throws {
    let threaded = try makeHub()
    let threadSink = ArraySink()
    threaded.addObserver(threadSink)
    threadSink.reset(capacity: 800_000)
    let threads = 8
    let perThread = 100_000
    let threadedTime = measureSeconds {
      onThreads(threads) { thread in
        let tagged = Podcast(
          id: "t\(thread)", title: "thread \(thread)", duration: 0, category: "", sizeBytes: 0)
        for index in 0..<perThread {
          var copy = tagged
          copy.duration = index
          threaded.send(userAction: .playPodcast(copy))
        }
      }
      threaded.flush()
    }
    let lost = threadSink.verifyPerThreadOrder(threads: threads, perThread: perThread)
    report.add(
      "hub.threads.rate", Double(threads * perThread) / threadedTime, unit: "sends/s",
      baseline: "8 threads × 100,000")
    report.add(
      "hub.threads.misordered_or_lost", Double(lost), unit: "dispatches", baseline: "8 threads × 100,000",
      atMost: 0)
  }

  /// An adapter taking 50 ms per call, like an SDK writing to disk or the network synchronously.
  struct SlowAdapter: SDKAdapter {
    func deliver(_ call: Call) { usleep(50_000) }
  }

  /// 8 threads sending while one provider's adapter takes 50 ms per call (one tag in 200 maps to
  /// it): the p99 and maximum `send` latency, against the same hub without that provider.
  static func slowAdapter(_ report: inout BenchReport) throws {
    func latencies(withSlowProvider: Bool) throws -> [UInt64] {
      var providers = prefixes.map {
        Provider<PodcastTaxonomy>(
          id: ProviderID(rawValue: $0), adapter: DiscardingAdapter<Call>(), mapping: mapping(prefix: $0))
      }
      if withSlowProvider {
        providers.append(
          Provider(id: "slow", adapter: SlowAdapter()) { tag, _ in
            guard case .userAction(.player(.playPodcast(let podcast))) = tag, podcast.duration % 200 == 0
            else {
              return []
            }
            return [Call(name: "slow", parameters: [:])]
          })
      }
      let hub = try AnalyticsHub(providers: ProviderSet(providers))
      let sink = ArraySink()
      hub.addObserver(sink)
      sink.reset(capacity: 80_000)
      let threads = 8
      let perThread = 10_000
      let collected = LatencyLog(threads: threads, perThread: perThread)
      onThreads(threads) { thread in
        var podcast = Podcast(id: "t\(thread)", title: "", duration: 0, category: "", sizeBytes: 0)
        for index in 0..<perThread {
          podcast.duration = index
          let start = DispatchTime.now().uptimeNanoseconds
          hub.send(userAction: .playPodcast(podcast))
          collected.set(thread: thread, index: index, DispatchTime.now().uptimeNanoseconds - start)
        }
      }
      hub.flush()
      return collected.sorted()
    }
    let fast = try latencies(withSlowProvider: false)
    let slow = try latencies(withSlowProvider: true)
    func percentile(_ sorted: [UInt64], _ p: Double) -> Double {
      Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1e6
    }
    report.add(
      "hub.slow_adapter.p99", percentile(slow, 0.99), unit: "ms",
      baseline: "8 threads × 10,000 sends, one adapter 50 ms/call", atMost: 1)
    report.add(
      "hub.slow_adapter.p99.vs_fast", percentile(slow, 0.99) / percentile(fast, 0.99), unit: "×",
      baseline: "p99 of the same sends without the slow provider")
    report.add("hub.slow_adapter.max", percentile(slow, 1), unit: "ms", baseline: "same sends")
    report.add("hub.fast_only.max", percentile(fast, 1), unit: "ms", baseline: "without the slow provider")
    report.add(
      "hub.slow_adapter.waited", Double(slow.filter { $0 >= 40_000_000 }.count), unit: "sends",
      baseline: "of 80,000 sends, took ≥ 40 ms")
    report.add(
      "hub.fast_only.waited", Double(fast.filter { $0 >= 40_000_000 }.count), unit: "sends",
      baseline: "same, without the slow provider (the scheduler's share)")
  }

  /// Runs `body` on `count` threads of their own (not a pool narrowed to the core count).
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
      group.enter()
      Thread {
        body(index)
        group.leave()
      }.start()
    }
    group.wait()
  }
}

/// Per-send latencies written by several threads, each into its own slots of one buffer.
final class LatencyLog: @unchecked Sendable {
  private let values: UnsafeMutableBufferPointer<UInt64>
  private let perThread: Int

  init(threads: Int, perThread: Int) {
    values = .allocate(capacity: threads * perThread)
    values.initialize(repeating: 0)
    self.perThread = perThread
  }

  deinit { values.deallocate() }

  func set(thread: Int, index: Int, _ nanoseconds: UInt64) {
    values[thread * perThread + index] = nanoseconds
  }

  func sorted() -> [UInt64] { Array(values).sorted() }
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
