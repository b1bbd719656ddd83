import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Lines that look like Firebase Analytics' but that the reader does not understand are counted by
/// wording, the first of each shown with its place, and named in `listen`'s closing summary.
final class FirebaseLogUnreadLinesTests: XCTestCase {
  func testLinesNotUnderstoodAreProblemsWithTheirWording() throws {
    // firebase/codelab-friendlychat-ios#15: five upload and timer messages after the event.
    let (entries, problems) = FirebaseLogWordingsTests.read(
      try FirebaseLogWordingsTests.lines("ios-2018-event-logged.txt"))
    XCTAssertEqual(FirebaseLogParserTests.events(entries).count, 1)
    XCTAssertEqual(
      problems.map(\.wording), ["I-ACS023027", "I-ACS002001", "I-ACS002003", "I-ACS023033", "I-ACS023037"])
    XCTAssertEqual(problems.map(\.line), [8, 9, 10, 11, 12])
    XCTAssertEqual(
      problems[1].message, "a Firebase Analytics line not understood (I-ACS002001): Measurement timer fired")

    let (_, old) = FirebaseLogWordingsTests.read(try FirebaseLogWordingsTests.lines("ios-2017-debug.txt"))
    XCTAssertEqual(old.map(\.wording), ["FIRAnalytics Measurement timer fired"])
    XCTAssertEqual(old.map(\.line), [15])

    let lines = [
      "[FirebaseCore][I-COR000001] Configuring the default app.",
      "11-25 20:15:35.000  4120  4188 V FA-SVC  : Upload scheduled in approximately ms: 12345",
      "11-25 20:15:35.000  4120  4188 V FA-SVC  :     param {",
      "11-25 20:15:35.000  4120  4188 V FA-SVC  : name: firebase_screen_id(_si)",
      "11-25 20:15:35.000  4120  4188 V FA-SVC  : }",
    ].map { $0[...] }
    let (_, android) = FirebaseLogWordingsTests.read(lines)
    XCTAssertEqual(
      android.map(\.wording), ["FA Upload scheduled in approximately ms"],
      "another module's line and an upload dump's lines are not Analytics lines to read")
  }

  func testATallyCountsEachWordingWithItsFirstPlaceAndBoundsTheWordings() {
    var tally = FirebaseLogUnreadLines()
    XCTAssertNil(tally.summary)
    XCTAssertTrue(tally.count("I-ACS002001", at: "a.log line 9"))
    XCTAssertTrue(tally.count("I-ACS023033", at: "a.log line 11"))
    XCTAssertFalse(tally.count("I-ACS023033", at: "a.log line 20"))
    XCTAssertEqual(tally.total, 3)
    XCTAssertEqual(
      tally.summary,
      "firebase log lines not understood 3 (I-ACS023033 ×2 first at a.log line 11; I-ACS002001 ×1 first at a.log line 9)"
    )
    for index in 0..<(FirebaseLogUnreadLines.wordingLimit + 10) {
      tally.count("w\(index)", at: "b.log line 1")
    }
    XCTAssertEqual(tally.wordings.count, FirebaseLogUnreadLines.wordingLimit)
    XCTAssertEqual(tally.total, 3 + FirebaseLogUnreadLines.wordingLimit + 10, "every line counted")
    XCTAssertTrue(tally.summary?.hasSuffix(", 45 more wordings and 12 lines)") == true, tally.summary ?? "")
  }

  func testListenCountsTheLinesShowsTheFirstOfEachAndNamesThemInItsSummary() async throws {
    let directory = try FirebaseLogFollowTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("chat.log")
    let real = try String(
      contentsOf: FirebaseLogParserTests.fixtures.appendingPathComponent("ios-2018-event-logged.txt"),
      encoding: .utf8)
    try Data((real + real).utf8).write(to: log)
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["SignInViewController", "SignInViewController"])
    XCTAssertTrue(eventually { server.statistics.unreadLogLines.total == 10 }, "\(server.statistics)")
    try await server.shutdown()
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertEqual(problems.count, 5, "the first of each wording: \(problems)")
    XCTAssertTrue(
      problems.first?.hasPrefix(
        "\(log.path) line 8: a Firebase Analytics line not understood (I-ACS023027): Do not schedule an upload task."
      ) == true, "\(problems)")
    let statistics = server.statistics
    XCTAssertNil(statistics.rejected[.badLogEntry], "lines not understood are not bad entries")
    XCTAssertTrue(
      statistics.summary.contains(
        "firebase log lines not understood 10 (I-ACS023027 ×2 first at \(log.path) line 8; I-ACS002001 ×2"),
      statistics.summary)
  }
}
