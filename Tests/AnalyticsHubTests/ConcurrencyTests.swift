import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import XCTest

final class ConcurrencyTests: XCTestCase {
  /// 8 threads sending concurrently: every dispatch observed exactly once, each thread's order kept.
  func testEveryDispatchObservedOnceInPerThreadOrder() throws {
    let threads = 8
    let perThread = ProcessInfo.processInfo.environment["TAGSCOPE_STRESS"] == nil ? 5_000 : 100_000
    let tracker = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "t", adapter: tracker, mapping: trackerMapping)])
    hub.send(screen: .podcasts)
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<perThread {
        let podcast = Podcast(
          id: "t\(thread)", title: "\(thread)", duration: index, category: "", sizeBytes: 0)
        hub.send(userAction: .playPodcast(podcast))
      }
    }
    hub.flush()
    let dispatches = recorder.dispatches.dropFirst()
    XCTAssertEqual(dispatches.count, threads * perThread)
    XCTAssertEqual(Set(dispatches.map(\.seq)).count, threads * perThread, "each seq once")
    XCTAssertEqual(
      dispatches.map(\.seq), Array(2...UInt64(threads * perThread + 1)), "observers see one total order")
    var next = [Int](repeating: 0, count: threads)
    for dispatch in dispatches {
      let thread = Int(dispatch.properties["podcast_id"]!.stringValue!.dropFirst())!
      XCTAssertEqual(dispatch.properties["podcast_duration"]?.intValue, next[thread])
      next[thread] += 1
    }
    XCTAssertEqual(tracker.calls.count, threads * perThread + 1)
  }

  func testContextChangesFromManyThreadsStayConsistent() throws {
    let (hub, recorder) = try makeHub([], historyLimit: 5)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<500 {
        if index % 2 == 0 { hub.send(screen: thread % 2 == 0 ? .podcasts : .favorites) }
        if index % 50 == 0 { hub.startSession(properties: ["thread": .int(thread)]) }
        hub.start(timedEvent: .onboarding)
        hub.cancel(timedEvent: .onboarding)
      }
    }
    hub.flush()
    XCTAssertEqual(hub.context.history.count, 5)
    XCTAssertTrue(recorder.dispatches.allSatisfy { $0.context.history.count <= 5 })
  }
}
