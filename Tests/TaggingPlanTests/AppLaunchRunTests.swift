import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// A device's records from another app run (the `run` `listen` adds from a stream's header) start
/// another app launch for `once: app-launch`, as a relaunch reconnecting under the same source does.
final class AppLaunchRunTests: XCTestCase {
  private func launched(_ seq: UInt64, run: String?) -> Record {
    var record = Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000 + Double(seq)), kind: .userAction,
      name: "launched", properties: [:],
      context: RecordContext(screen: "home", history: ["home"], session: nil))
    record.source = "App@sim"
    if let run { record.extra["run"] = .string(run) }
    return record
  }

  func testAnotherRunOfTheSameDeviceIsAnotherAppLaunch() throws {
    let plan = try PlanLoader.load(
      yaml: "plan: P\nactions:\n  launched: {once: app-launch}\n", file: "p.yaml")
    let records = [
      launched(1, run: "r1"), launched(2, run: "r1"), launched(3, run: "r2"), launched(4, run: "r2"),
      launched(5, run: nil),
    ]
    let found = validate(records, plan: plan).0
    XCTAssertEqual(found.map(\.seq), [2, 4, 5])
    XCTAssertEqual(Set(found.map(\.rule)), [.repeated])
  }
}
