import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeTestSupport
import XCTest

@testable import TagscopeInspector
@testable import TagscopeRecording
@testable import TagscopeTimeline

/// The recorder's file read back: what the hub dispatched, and the drops of a full backlog.
final class RecorderReaderTests: XCTestCase {
  func testHubToRecordToFileToReaderIsTheSame() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("tour.jsonl")
    let clock = ManualClock()
    let hub = try makePodcastHub(clock: clock)
    let memory = DispatchRecorder()
    hub.addObserver(memory)
    let header = RecordingHeader(app: "Podcasts", device: "test", started: clock.now)
    let inspector = Inspector(sinks: [try Recorder(url: url, header: header)])
    hub.addObserver(inspector)
    drivePodcastTour(hub, clock: clock, steps: 500)
    hub.flush()
    inspector.close()

    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.header, header)
    XCTAssertEqual(read.problems, [])
    XCTAssertEqual(read.markers, [])
    XCTAssertEqual(read.records, memory.dispatches.map(Record.init(dispatch:)))
    XCTAssertEqual(read.records.count, memory.dispatches.count)
    XCTAssertGreaterThan(read.records.count, 450)
    XCTAssertEqual(read.locations.first?.line, 2)
    // Every kind of the tour is there, with calls and blocked outputs.
    XCTAssertEqual(
      Set(read.records.map(\.kind)),
      [
        .screen, .userAction, .timedStart, .event, .timedStop, .sessionStart, .sessionEnd, .consent, .state,
        .sessionUpdate, .identify,
      ])
    XCTAssertTrue(
      read.records.contains { $0.outputs.contains { $0.status == .blocked && $0.reason == "consent" } })
    XCTAssertTrue(read.records.contains { !$0.issues.isEmpty })
  }

  func testAFullBacklogDropsAndWritesTheCountIntoTheRecording() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("drops.jsonl")
    // A sink stalled after its first batch: the backlog of 8 overflows whatever the machine's pace.
    let stalled = BacklogTests.GatedSink()
    let recorder = try Recorder(url: url)
    let inspector = Inspector(sinks: [stalled, recorder], backlog: .dispatches(8))
    let clock = ManualClock()
    let hub = try makePodcastHub(clock: clock)
    hub.addObserver(inspector)
    drivePodcastTour(hub, clock: clock, steps: 400)
    hub.flush()
    stalled.open()
    inspector.close()
    let dropped = inspector.droppedCount
    XCTAssertGreaterThan(dropped, 0, "the stalled sink makes the backlog overflow")
    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.problems, [])
    XCTAssertEqual(read.markers.map(\.count).reduce(0, +), dropped)
    XCTAssertEqual(read.records.count + dropped, read.records.count + read.markers.map(\.count).reduce(0, +))
    XCTAssertTrue(read.markers.allSatisfy { $0.origin == "inspector" })
    // Every gap in the sequence is explained by a marker right after the last record before it.
    let received = read.records.map(\.seq)
    XCTAssertEqual(received, received.sorted())
    for marker in read.markers { XCTAssertTrue(marker.afterSeq.map(received.contains) ?? true) }
  }
}
