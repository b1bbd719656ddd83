import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// The UI over the inspector's real ``Timeline``: a recording written by a real hub and inspector,
/// indexed from the file, read through ``InspectorTimelineSource``.
final class InspectorTimelineTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-ui-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Records the demo (seed 11) through a real inspector; returns the file and the dispatches.
  private func recordDemo(count: Int) throws -> (URL, [Dispatch]) {
    let url = directory.appendingPathComponent("demo.jsonl")
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 11)
    let recorder = try Recorder(url: url, header: RecordingHeader(app: "Podcasts", started: clock.now))
    let inspector = Inspector(sinks: [recorder])
    let dispatches = DispatchRecorder()
    hub.addObserver(inspector)
    hub.addObserver(dispatches)
    let simulator = PodcastSimulator(hub: hub, seed: 11)
    while dispatches.dispatches.count < count { clock.advance(by: simulator.step()) }
    hub.flush()
    inspector.close()
    return (url, dispatches.dispatches)
  }

  func testReplayThroughTheTimelineShowsWhatTheHubDispatched() throws {
    let (url, dispatches) = try recordDemo(count: 300)
    let timeline = try Timeline.open(path: url.path)
    defer { timeline.release() }
    timeline.waitUntilIndexed()
    let source = InspectorTimelineSource(timeline: timeline, sourceLabel: "demo.jsonl")
    XCTAssertEqual(source.count, dispatches.count)
    XCTAssertEqual(source.info.appName, "Podcasts")
    for index in [0, 1, 57, 150, dispatches.count - 1] {
      let expected = Record(dispatch: dispatches[index])
      XCTAssertEqual(try source.record(at: index).get(), expected, "record \(index)")
      let summary = try XCTUnwrap(source.summaries(in: index..<(index + 1)).first)
      XCTAssertEqual(summary.seq, expected.seq)
      XCTAssertEqual(summary.name, expected.name)
      XCTAssertEqual(summary.outputs.map(\.provider), expected.outputs.map(\.provider))
      XCTAssertEqual(summary.outputs.map(\.status), expected.outputs.map(\.status))
      XCTAssertEqual(summary.timeMilliseconds, expected.timeMilliseconds)
      XCTAssertEqual(source.state(at: index)?.history, expected.context.history, "history as of \(index)")
    }
  }

  func testSteppingBackShowsThePastExactly() throws {
    let (url, dispatches) = try recordDemo(count: 400)
    let timeline = try Timeline.open(path: url.path)
    defer { timeline.release() }
    timeline.waitUntilIndexed()
    var state = UISession(
      source: InspectorTimelineSource(timeline: timeline, sourceLabel: "x"), mode: .replay,
      size: Size(width: 140, height: 40))
    state.apply(.key(.character("G")))
    for _ in 0..<250 { state.apply(.key(.character(","))) }
    let index = try XCTUnwrap(state.selectedIndex)
    XCTAssertEqual(index, dispatches.count - 251)
    let screen = dispatches[index].context.history.last ?? "no screen yet"
    XCTAssertTrue(render(state).text.contains("▶ \(screen)") || screen == "no screen yet")
    // Consent as of the selected record: replayed from the consent records before it.
    var granted: [String: Bool] = [:]
    for dispatch in dispatches[...index] where dispatch.kind == .consent {
      if case .string(let scope)? = dispatch.properties["scope"],
        case .bool(let value)? = dispatch.properties["granted"]
      {
        granted[scope] = value
      }
    }
    let consent = try XCTUnwrap(state.selected?.state.consent)
    XCTAssertEqual(Dictionary(uniqueKeysWithValues: consent.map { ($0.scope, $0.granted) }), granted)
  }
}
