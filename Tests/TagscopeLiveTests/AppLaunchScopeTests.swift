import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// `once: app-launch` under `listen` (issue 47, report 23V gap 3): an app launch ends when the app
/// reconnects as another run (a relaunch) and at `POST /reset`, as a UI test suite resetting per
/// test expects; within one launch a repeat is still found.
final class AppLaunchScopeTests: XCTestCase {
  private static let plan = "plan: Shop\nactions:\n  launched: {once: app-launch}\n"

  /// The `seq` of each `repeated` finding so far, in position order.
  private func repeated(_ listen: QueryAPIHarness) -> [UInt64] {
    let monitor = listen.session.checker!.monitor
    return (0..<listen.timeline.count).flatMap { monitor.violations(at: $0) }.filter { $0.rule == .repeated }
      .map(\.seq)
  }

  private func connect(_ listen: QueryAPIHarness, run: String) throws -> RawClient {
    let client = try RawClient(port: listen.server.port)
    client.send(
      #"{"format":"tagscope-recording","version":1,"app":"App","device":"sim","run":"\#(run)"}"# + "\n")
    return client
  }

  func testARelaunchAndAResetEndTheAppLaunch() async throws {
    let listen = try await QueryAPIHarness.start(plan: Self.plan)
    addTeardownBlock { try? await listen.stop() }
    let first = try connect(listen, run: "r1")
    first.send(
      [recordLine(1, "userAction", "launched"), recordLine(2, "userAction", "launched")].joined(
        separator: "\n") + "\n")
    XCTAssertEqual(try listen.request("wait?count=2&timeout=60").status, 200)
    XCTAssertTrue(eventually { self.repeated(listen) == [2] }, "\(repeated(listen))")
    // The app relaunched: another run, another connection.
    let second = try connect(listen, run: "r2")
    second.send(recordLine(1, "userAction", "launched") + "\n")
    XCTAssertEqual(try listen.request("wait?count=3&timeout=60").status, 200)
    XCTAssertEqual(try listen.request("reset", method: "POST").status, 200)
    second.send(
      [recordLine(2, "userAction", "launched"), recordLine(3, "userAction", "launched")].joined(
        separator: "\n") + "\n")
    XCTAssertEqual(try listen.request("wait?count=2&timeout=60").status, 200)
    // Only #3 repeats (#2 of the new segment's launch); #1 of r2 and #2 after the reset do not.
    XCTAssertTrue(eventually { self.repeated(listen) == [2, 3] }, "\(repeated(listen))")
  }
}
