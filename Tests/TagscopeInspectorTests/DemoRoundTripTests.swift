import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeTestSupport
import XCTest

@testable import TagscopeInspector
@testable import TagscopeRecording
@testable import TagscopeTimeline

/// The demo app (simulator, real mappings and provider rules) through the whole inspector: the
/// recording reads back equal, the live timeline and its replay agree, violations are indexed.
final class DemoRoundTripTests: XCTestCase {
  func testSimulatorRecordingRoundTripsThroughRecorderTimelineAndReader() throws {
    let directory = try TemporaryDirectory()
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 7)
    let memory = DispatchRecorder()
    hub.addObserver(memory)
    let header = RecordingHeader(app: "Podcasts", device: "simulator", started: DemoHub.seededEpoch)
    let recorder = try Recorder(url: directory.file("demo.jsonl"), header: header)
    let live = try Timeline.live(recordingTo: directory.file("live.jsonl"), header: header)
    let inspector = Inspector(sinks: [recorder, live])
    hub.addObserver(inspector)
    let simulator = PodcastSimulator(hub: hub, seed: 7)
    while memory.dispatches.count < 3000 { clock.advance(by: simulator.step()) }
    hub.flush()
    inspector.close()
    let expected = memory.dispatches.map(Record.init(dispatch:))

    let read = try ReadBack(path: directory.file("demo.jsonl").path)
    XCTAssertEqual(read.header, header)
    XCTAssertEqual(read.problems, [])
    XCTAssertEqual(read.records, expected)

    let replay = try Timeline.open(url: directory.file("demo.jsonl"))
    defer { replay.release() }
    replay.waitUntilIndexed()
    XCTAssertEqual(replay.count, expected.count)
    XCTAssertEqual(live.count, expected.count)
    XCTAssertEqual(replay.summaries(in: 0..<expected.count), live.summaries(in: 0..<expected.count))
    XCTAssertEqual(replay.providers, ["firebase", "amplitude", "piano", "braze", "fpti"])
    for position in stride(from: 0, to: expected.count, by: 97) {
      XCTAssertEqual(try replay.state(at: position), try live.state(at: position), "at \(position)")
      XCTAssertEqual(try replay.record(at: position), expected[position])
    }
    // The demo's deliberate Firebase bug (a 54-character event name) shows as a rule violation.
    let flagged = try replay.filter(TimelineFilter(violations: true))
    XCTAssertEqual(flagged, expected.indices.filter { expected[$0].hasViolations })
    XCTAssertFalse(flagged.isEmpty, "the simulator hits a deliberate bug in 3,000 tags")
    live.release()
  }
}
