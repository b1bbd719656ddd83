import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 44: a recording continued by a restarted `listen --log` reads the log on from its last
/// recorded entry, and an iOS confirmation line just after that entry restates it: it is not a
/// call of its own, recorded a second time.
final class FirebaseLogResumeTests: XCTestCase {
  /// `Tests/Fixtures/firebase-log/ios-restated-event.txt`: a call's first line…
  static let logged = """
    2024-05-21 18:02:07.891490+0530 FirstTest[860:117158] 10.25.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: auto, screen_view (_vs), {
        ga_event_origin (_o) = auto;
        ga_screen_class (_sc) = UISplitViewController;
        ga_screen_id (_si) = 1905641140094295164;
    }

    """
  /// … and the two lines restating it.
  static let restated = """
    2024-05-21 18:02:07.892634+0530 FirstTest[860:117153] 10.25.0 - [FirebaseAnalytics][I-ACS023073] Debug mode is enabled. Marking event as debug and real-time. Event name, parameters: screen_view (_vs), {
        ga_debug (_dbg) = 1;
        ga_event_origin (_o) = auto;
        ga_realtime (_r) = 1;
        ga_screen_class (_sc) = UISplitViewController;
        ga_screen_id (_si) = 1905641140094295164;
    }
    2024-05-21 18:02:07.896213+0530 FirstTest[860:117158] 10.25.0 - [FirebaseAnalytics][I-ACS023072] Event logged. Event name, event params: screen_view (_vs), {
        ga_debug (_dbg) = 1;
        ga_event_origin (_o) = auto;
        ga_realtime (_r) = 1;
        ga_screen_class (_sc) = UISplitViewController;
        ga_screen_id (_si) = 1905641140094295164;
    }

    """
  /// A new call after them (the first line's wording, another event).
  static let next = """
    2024-05-21 18:02:09.000000+0530 FirstTest[860:117158] 10.25.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, level_up, {
        ga_event_origin (_o) = app;
        level = 3;
    }

    """

  private var directory: URL!

  override func setUpWithError() throws {
    directory = try FirebaseLogFollowTests.directory()
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  func testAConfirmationLineRightAfterTheResumePlaceIsNotASecondCall() async throws {
    let log = directory.appendingPathComponent("xcode.log")
    try Data(Self.logged.utf8).write(to: log)
    let (first, recorded) = try await startServer()
    try first.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(recorded.waitForRecords(1).map(\.name), ["UISplitViewController"], "a screen view")
    try await first.shutdown()

    try Data((Self.logged + Self.restated + Self.next).utf8).write(to: log)
    var configuration = ListenConfiguration(port: 0)
    for record in recorded.records { configuration.recordedLogs.note(record) }
    let (second, resumed) = try await startServer(configuration)
    try second.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(
      resumed.waitForRecords(1).map(\.name), ["level_up"], "the restated call is not recorded again")
    try await second.shutdown()
  }

  func testAParserPrimedWithTheLinesBeforeItsPlaceKnowsTheirCalls() {
    let before = Self.logged.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    var parser = FirebaseLogParser(after: 5, tail: Array(before))
    var items: [FirebaseLogItem] = []
    for line in (Self.restated + Self.next).split(separator: "\n") { items += parser.feed(line) }
    items += parser.finish()
    let names = items.compactMap { item -> String? in
      guard case .entry(.event(let event)) = item else { return nil }
      return event.name
    }
    XCTAssertEqual(names, ["level_up"])
    XCTAssertEqual(parser.lineNumber, 5 + 18)
  }
}
