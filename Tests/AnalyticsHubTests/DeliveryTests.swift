import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import XCTest

/// Adapters and observers are called outside the hub's lock: they may call the hub, a slow one
/// holds back neither the senders nor the other providers, and every dispatch is still observed
/// once, in one order.
final class DeliveryTests: XCTestCase {
  /// An adapter whose SDK calls back into the hub (a real SDK's completion handler can).
  final class ReentrantAdapter: SDKAdapter, @unchecked Sendable {
    let recorded = TestAdapter<TrackerCall>()
    private let lock = NSLock()
    private var attached: AnalyticsHub<PodcastTaxonomy>?

    var hub: AnalyticsHub<PodcastTaxonomy>? {
      get { lock.withLock { attached } }
      set { lock.withLock { attached = newValue } }
    }

    func deliver(_ call: TrackerCall) throws {
      try recorded.deliver(call)
      if case .screen("show_podcasts") = call { hub?.send(userAction: .playPodcast(swiftBySundell)) }
    }
  }

  func testAnAdapterThatSendsFromDeliverIsQueuedNotDeadlocked() throws {
    let adapter = ReentrantAdapter()
    let (hub, recorder) = try makeHub([Provider(id: "t", adapter: adapter, mapping: trackerMapping)])
    adapter.hub = hub
    let returned = expectation(description: "send returns")
    DispatchQueue.global().async {
      hub.send(screen: .podcasts)
      returned.fulfill()
    }
    wait(for: [returned], timeout: 60)
    hub.flush()
    XCTAssertEqual(recorder.dispatches.map(\.name), ["podcasts", "playPodcast"])
    XCTAssertEqual(recorder.dispatches.map(\.seq), [1, 2])
    XCTAssertEqual(
      adapter.recorded.names, ["show_podcasts", "play_podcast_from_podcasts"],
      "the tag sent from the adapter is mapped in the context of the screen before it")
  }

  func testAnObserverThatSendsIsQueuedBehindTheDispatchItObserves() throws {
    let tracker = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "t", adapter: tracker, mapping: trackerMapping)])
    let second = DispatchRecorder()
    hub.addObserver(
      ClosureObserver { [weak hub] dispatch in
        if dispatch.kind == .screen { hub?.send(userAction: .pausePodcast(swiftBySundell)) }
      })
    hub.addObserver(second)
    let returned = expectation(description: "send returns")
    DispatchQueue.global().async {
      hub.send(screen: .podcasts)
      hub.send(screen: .favorites)
      returned.fulfill()
    }
    wait(for: [returned], timeout: 60)
    hub.flush()
    let names = recorder.dispatches.map(\.name)
    XCTAssertEqual(names.count, 4)
    XCTAssertEqual(names.filter { $0 == "pausePodcast" }.count, 2)
    XCTAssertEqual(recorder.dispatches.map(\.seq), [1, 2, 3, 4], "one total order")
    XCTAssertEqual(second.dispatches.map(\.seq), [1, 2, 3, 4], "the same order for every observer")
    XCTAssertEqual(tracker.names, ["show_podcasts", "pause_podcast", "pause_podcast"])
  }

  /// An adapter that takes 50 ms for every call it is given.
  struct SlowAdapter: SDKAdapter {
    let recorded = TestAdapter<TrackerCall>()

    func deliver(_ call: TrackerCall) throws {
      usleep(50_000)
      try recorded.deliver(call)
    }

    var calls: [TrackerCall] { recorded.calls }
  }

  /// An SDK that takes 50 ms for its first call, and whose later calls wait until the test opens
  /// its gate: slow, then stuck for as long as the test needs.
  final class StuckAdapter: SDKAdapter, @unchecked Sendable {
    let recorded = TestAdapter<TrackerCall>()
    private let lock = NSLock()
    private var entered = 0
    private let gate = DispatchSemaphore(value: 0)

    func deliver(_ call: TrackerCall) throws {
      let first = lock.withLock {
        entered += 1
        return entered == 1
      }
      if first {
        usleep(50_000)
      } else {
        gate.wait()
        gate.signal()
      }
      try recorded.deliver(call)
    }

    func open() { gate.signal() }

    var calls: [TrackerCall] { recorded.calls }
  }

  func testASlowAdapterHoldsBackNeitherSendersNorOtherProviders() throws {
    let threads = 8
    let perThread = 200
    let slow = StuckAdapter()
    let fast = TestAdapter<TrackerCall>()
    // The slow provider gets one call in 40 tags: 40 calls.
    let slowMapping: Mapping<PodcastTaxonomy, TrackerCall> = { tag, _ in
      guard case .userAction(.player(.playPodcast(let podcast))) = tag, podcast.duration % 40 == 0 else {
        return []
      }
      return [.event("slow_\(podcast.id)_\(podcast.duration)", [:])]
    }
    let (hub, recorder) = try makeHub([
      Provider(id: "slow", adapter: slow, mapping: slowMapping),
      Provider(id: "fast", adapter: fast, mapping: { tag, _ in [.event(tag.name, [:])] }),
    ])
    // The adapter's first call (its slowness not yet known) holds its sender 50 ms; every later
    // one is stuck until the end. Were the adapter called on the senders' threads, or under the
    // hub's lock, the senders would never finish.
    let sent = expectation(description: "every send returned")
    Thread {
      runThreads(threads) { thread in
        for index in 0..<perThread {
          let podcast = Podcast(id: "t\(thread)", title: "", duration: index, category: "", sizeBytes: 0)
          hub.send(userAction: .playPodcast(podcast))
        }
      }
      sent.fulfill()
    }.start()
    wait(for: [sent], timeout: 60)
    XCTAssertEqual(slow.calls.count, 1, "the slow adapter is stuck after its first call")
    XCTAssertTrue(
      eventually { fast.calls.count == threads * perThread }, "the other provider gets every call meanwhile")
    slow.open()
    hub.flush()
    XCTAssertEqual(slow.calls.count, threads * perThread / 40)
    XCTAssertEqual(fast.calls.count, threads * perThread)
    let dispatches = recorder.dispatches
    XCTAssertEqual(dispatches.map(\.seq), Array(1...UInt64(threads * perThread)), "each once, in order")
    var next = [Int](repeating: 0, count: threads)
    for dispatch in dispatches {
      let thread = Int(dispatch.properties["podcast_id"]!.stringValue!.dropFirst())!
      XCTAssertEqual(dispatch.properties["podcast_duration"]?.intValue, next[thread])
      next[thread] += 1
    }
    let slowOrder = slow.calls.compactMap(\.name)
    for thread in 0..<threads {
      let mine = slowOrder.filter { $0.hasPrefix("slow_t\(thread)_") }
      XCTAssertEqual(mine, (0..<perThread / 40).map { "slow_t\(thread)_\($0 * 40)" }, "per-thread order kept")
    }
  }

  func testFailuresOfAQueuedAdapterStillReachTheDispatch() throws {
    let failing = TestAdapter<TrackerCall>()
    failing.failDeliveries(with: DeliveryError())
    let (hub, recorder) = try makeHub(
      [Provider(id: "failing", adapter: failing, mapping: trackerMapping)],
      inlineDeliveryLimit: 0)
    for _ in 0..<50 { hub.send(screen: .podcasts) }
    hub.flush()
    XCTAssertEqual(recorder.dispatches.count, 50)
    XCTAssertTrue(
      recorder.dispatches.allSatisfy { $0.outcome(for: "failing")?.status == .failed("SDK not configured") })
  }

  func testStartSessionIsOneStepForOtherThreads() throws {
    let (hub, recorder) = try makeHub([])
    hub.startSession()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for _ in 0..<200 {
        if thread == 0 { hub.startSession() } else { hub.send(event: .playerDidPlay(swiftBySundell)) }
      }
    }
    hub.flush()
    let dispatches = recorder.dispatches
    for (index, dispatch) in dispatches.enumerated() where dispatch.kind == .sessionEnd {
      XCTAssertEqual(dispatches[index + 1].kind, .sessionStart, "nothing lands between end and start")
      XCTAssertNil(dispatch.context.session, "the ended session is gone from the end's context")
    }
    XCTAssertTrue(dispatches.allSatisfy { $0.kind == .sessionEnd || $0.context.session != nil })
  }

  /// An adapter that, at its first call, sends another tag and unregisters its own provider.
  final class UnregisteringAdapter: SDKAdapter, @unchecked Sendable {
    let recorded = TestAdapter<TrackerCall>()
    private let lock = NSLock()
    private weak var attached: AnalyticsHub<PodcastTaxonomy>?

    var hub: AnalyticsHub<PodcastTaxonomy>? {
      get { lock.withLock { attached } }
      set { lock.withLock { attached = newValue } }
    }

    func deliver(_ call: TrackerCall) throws {
      try recorded.deliver(call)
      guard recorded.calls.count == 1, let hub else { return }
      hub.send(userAction: .playPodcast(swiftBySundell))
      try hub.unregister("leaving")
    }
  }

  func testAProviderUnregisteredWhileItsCallsAreInFlightStillGetsThemAndIsThenReleased() throws {
    let staying = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "staying", adapter: staying, mapping: trackerMapping)])
    weak var released: UnregisteringAdapter?
    do {
      let leaving = UnregisteringAdapter()
      leaving.hub = hub
      released = leaving
      try hub.register(Provider(id: "leaving", adapter: leaving, mapping: trackerMapping))
      hub.send(screen: .podcasts)
      hub.flush()
      XCTAssertEqual(
        leaving.recorded.names, ["show_podcasts", "play_podcast_from_podcasts"],
        "the call queued before unregistering is still delivered")
    }
    XCTAssertNil(released, "the unregistered provider is released once its calls are delivered")
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(hub.providerIDs, ["staying"])
    XCTAssertEqual(staying.names, ["show_podcasts", "play_podcast_from_podcasts", "show_podcasts"])
    XCTAssertEqual(recorder.dispatches.map(\.seq), [1, 2, 3])
    XCTAssertEqual(recorder.dispatches.last?.outcomes.map(\.provider), ["staying"])
  }

  func testFlushWaitsForWorkHandedToTheHubsQueue() throws {
    let slow = SlowAdapter()
    let (hub, recorder) = try makeHub(
      [Provider(id: "slow", adapter: slow, mapping: trackerMapping)], inlineDeliveryLimit: 0)
    for _ in 0..<6 { hub.send(screen: .podcasts) }
    hub.flush()
    XCTAssertEqual(slow.calls.count, 6)
    XCTAssertEqual(recorder.dispatches.count, 6)
    hub.flush()
  }
}

/// Runs `body` on `count` threads of their own (not a pool narrowed to the core count) and waits.
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      body(index)
      group.leave()
    }
    thread.start()
  }
  group.wait()
}
