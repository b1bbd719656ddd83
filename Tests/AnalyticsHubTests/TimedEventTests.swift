import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import XCTest

final class TimedEventTests: XCTestCase {
  func testStopMeasuresTheDurationAndMapsToStartStopNames() throws {
    let clock = ManualClock()
    let tracker = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub(
      [Provider(id: "t", adapter: tracker, mapping: trackerMapping)], clock: clock)
    hub.start(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(hub.context.timedEvents.keys.sorted(), ["onboarding"])
    XCTAssertEqual(recorder.last?.context.timedEvents, ["onboarding"])
    clock.advance(by: 12.25)
    hub.stop(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(
      tracker.calls, [.event("ONBOARDING_START", [:]), .event("ONBOARDING_STOP", ["duration": 12.25])])
    XCTAssertEqual(recorder.last?.kind, .timedStop)
    XCTAssertEqual(recorder.last?.properties["duration"], 12.25)
    XCTAssertTrue(hub.context.timedEvents.isEmpty)
  }

  func testCancelIsRecordedAsACancelledStop() throws {
    let clock = ManualClock()
    let (hub, recorder) = try makeHub([], clock: clock)
    hub.start(timedEvent: .listening(swiftBySundell))
    clock.advance(by: 3)
    hub.cancel(timedEvent: .listening(swiftBySundell))
    hub.flush()
    XCTAssertEqual(recorder.last?.kind, .timedStop)
    XCTAssertEqual(recorder.last?.properties["cancelled"], true)
    XCTAssertEqual(recorder.last?.properties["duration"], 3.0)
  }

  func testStoppingATimedEventNeverStartedIsAReportedNoOp() throws {
    let tracker = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "t", adapter: tracker, mapping: trackerMapping)])
    hub.stop(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(recorder.last?.issues.map(\.code), [.timedEventNotStarted])
    XCTAssertEqual(recorder.last?.outcomes, [])
    XCTAssertTrue(tracker.calls.isEmpty)
  }

  func testStartingTwiceRestartsTheTimerAndSaysSo() throws {
    let clock = ManualClock()
    let (hub, recorder) = try makeHub([], clock: clock)
    hub.start(timedEvent: .onboarding)
    clock.advance(by: 10)
    hub.start(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(recorder.last?.issues.map(\.code), [.timedEventRestarted])
    clock.advance(by: 2)
    hub.stop(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(recorder.last?.properties["duration"], 2.0)
  }
}
