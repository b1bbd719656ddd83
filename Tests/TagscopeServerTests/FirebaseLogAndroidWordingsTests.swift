import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeServer

/// Issue 44's Android Firebase log wordings (`Tests/Fixtures/firebase-log-android`, sources in its
/// README): the service's `Event recorded: Event{…}` read when a paste holds it alone, and the
/// service's lines restating the app's `(FE)` calls recorded once with them.
final class FirebaseLogAndroidWordingsTests: XCTestCase {
  typealias Read = FirebaseLogParserTests

  static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/firebase-log-android")

  static func read(_ name: String) throws -> (entries: [FirebaseLogEntry], problems: [FirebaseLogProblem]) {
    let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    return FirebaseLogWordingsTests.read(
      text.split(separator: "\n", omittingEmptySubsequences: false).dropLast())
  }

  func testAnEventRecordedLineAloneIsReadAsItsEvent() throws {
    // RebelLabs' 2016 post: the service's `Event recorded` is the only line of the app's event.
    let (entries, problems) = try Self.read("event-recorded-2016.txt")
    XCTAssertEqual(problems, [])
    let event = try XCTUnwrap(Read.events(entries).first)
    XCTAssertEqual(Read.events(entries).count, 1)
    XCTAssertEqual(event.name, "search")
    XCTAssertEqual(event.origin, "app", "the origin `_o` prints")
    XCTAssertEqual(event.source.platform, .android)
    XCTAssertEqual(event.source.processID, "1734")
    XCTAssertEqual(event.source.process, "org.zeroturnaround.githubcontributors", "the app id names the app")
    XCTAssertTrue(event.raw.hasPrefix("Event recorded: Event{appId="), event.raw)
    let record = FirebaseLogRecords.ingested(.event(event), input: "paste")
    XCTAssertEqual(record.call.method, "logEvent")
    XCTAssertEqual(
      record.call.parameters, ["search_term": "retrofit&square"], "`_o` is the SDK's, kept beside")

    // cordova-plugin-firebase#1071: the app's `(FE)` line, internal parameters beside the call.
    let (frontEnd, frontEndProblems) = try Self.read("front-end-event-2019.txt")
    XCTAssertEqual(frontEndProblems, [])
    let session = try XCTUnwrap(Read.events(frontEnd).first)
    XCTAssertEqual(session.name, "session_start")
    XCTAssertEqual(session.origin, "auto")
    XCTAssertEqual(FirebaseLogRecords.ingested(.event(session), input: "paste").call.parameters, [:])
  }

  func testTheServicesLinesRestatingTheAppsCallsAreNotRecordedAgain() throws {
    let (entries, problems) = try Self.read("app-and-service.txt")
    let events = Read.events(entries)
    XCTAssertEqual(
      events.map(\.name), ["select_content", "select_content", "screen_view"],
      "two calls printed three times each, and an `Event recorded` alone: \(events.map(\.raw))")
    XCTAssertEqual(events.map(\.source.line), [1, 4, 9], "each call read from its first line")
    XCTAssertEqual(events.last?.origin, "auto")
    XCTAssertEqual(events.last?.source.process, "com.example.shop")
    for event in events.prefix(2) {
      XCTAssertEqual(
        FirebaseLogRecords.ingested(.event(event), input: "log").call.parameters,
        ["content_type": "image", "item_id": 42])
    }
    let properties = Read.properties(entries)
    XCTAssertEqual(properties.map(\.name), ["age"], "the service's line restates the app's")
    XCTAssertEqual(properties.first?.value, .string("84"), "user properties are text")
    XCTAssertEqual(properties.first?.source.line, 7)
    // The cut `Event recorded` line is reported with its place, not dropped.
    XCTAssertEqual(problems.map(\.line), [10])
    XCTAssertTrue(problems.first?.message.contains("recorded event") == true, "\(problems)")
  }

  func testTheServicesLinesAloneStillRecordEachCall() throws {
    // Without the app's `(FE)` lines, the service's `Logging event` is the call, and its `Event
    // recorded` the restatement.
    let lines = try String(
      contentsOf: Self.fixtures.appendingPathComponent("app-and-service.txt"), encoding: .utf8
    ).split(separator: "\n").filter { !$0.contains(" FA      : ") }
    let (entries, _) = FirebaseLogWordingsTests.read(lines)
    XCTAssertEqual(Read.events(entries).map(\.name), ["select_content", "select_content", "screen_view"])
    XCTAssertEqual(Read.properties(entries).map(\.value), [.string("84")])
  }
}
