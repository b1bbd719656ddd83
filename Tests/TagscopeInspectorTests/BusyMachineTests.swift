import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeInspector

/// `tagscope demo --headless --count N --record FILE` on a machine whose cores are busy: the
/// recording holds N records, because a data generator waits for its writer instead of dropping.
final class BusyMachineTests: XCTestCase {
  /// Threads spinning until stopped, competing for the cores.
  final class BusyThreads: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false

    init(_ count: Int) {
      for _ in 0..<count {
        Thread.detachNewThread { [self] in
          var spins = 0
          while true {
            spins &+= 1
            if spins & 0xFFFF == 0 && isStopping { break }
          }
        }
      }
    }

    var isStopping: Bool { lock.withLock { stopping } }
    func stop() { lock.withLock { stopping = true } }
  }

  func testTheHeadlessDemoWritesEveryRecordWhileTwoThreadsKeepTheCoresBusy() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("busy.jsonl")
    let busy = BusyThreads(2)
    defer { busy.stop() }
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 3)
    let recorder = try Recorder(url: url, header: RecordingHeader(app: "Podcasts", started: clock.now))
    // A small backlog and a slow sink beside the recorder: a dropping inspector loses records here.
    let inspector = Inspector(sinks: [SlowSink(), recorder], backlog: .dispatches(32), whenFull: .wait)
    HeadlessRun.run(hub: hub, clock: clock, seed: 3, count: 3_000, rate: nil, observers: [inspector])
    inspector.close()
    XCTAssertEqual(inspector.droppedCount, 0)
    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.records.count, 3_000)
    XCTAssertEqual(read.markers.count, 0)
    XCTAssertEqual(read.records.map(\.seq), read.records.map(\.seq).sorted())
  }

  func testADroppingInspectorStillDropsWhereTheWaitingOneWaits() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("drops.jsonl")
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 3)
    let recorder = try Recorder(url: url, header: RecordingHeader(app: "Podcasts", started: clock.now))
    // A sink stalled after its first batch: the backlog of 32 overflows whatever the machine's pace.
    let stalled = BacklogTests.GatedSink()
    let inspector = Inspector(sinks: [stalled, recorder], backlog: .dispatches(32))
    HeadlessRun.run(hub: hub, clock: clock, seed: 3, count: 3_000, rate: nil, observers: [inspector])
    stalled.open()
    inspector.close()
    XCTAssertGreaterThan(inspector.droppedCount, 0, "an app's inspector never waits: it drops and says so")
    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.records.count + read.markers.map(\.count).reduce(0, +), 3_000)
  }
}
