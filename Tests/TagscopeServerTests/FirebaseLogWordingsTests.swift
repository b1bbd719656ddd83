import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeServer

/// Issue 44's Firebase log wordings, on real pastes (`Tests/Fixtures/firebase-log`, sources in its
/// README): the SDK's restatements of a call (`Event logged`, `Debug mode is enabled. Marking
/// event…`, `User property set`) read when a paste holds them alone and once with the call they
/// restate; the SDK's internal parameters the same in every wording; user properties as text.
final class FirebaseLogWordingsTests: XCTestCase {
  typealias Read = FirebaseLogParserTests

  static func lines(_ name: String) throws -> [Substring] {
    let text = try String(
      contentsOf: FirebaseLogParserTests.fixtures.appendingPathComponent(name), encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  }

  /// The entries of `lines`, and the problems of entries that could not be read.
  static func read(_ lines: [Substring]) -> (entries: [FirebaseLogEntry], problems: [FirebaseLogProblem]) {
    var parser = FirebaseLogParser()
    var items: [FirebaseLogItem] = []
    for line in lines { items += parser.feed(line) }
    items += parser.finish()
    var entries: [FirebaseLogEntry] = []
    var problems: [FirebaseLogProblem] = []
    for item in items {
      switch item {
      case .entry(let entry): entries.append(entry)
      case .problem(let problem): problems.append(problem)
      }
    }
    return (entries, problems)
  }

  func testAPasteOfConfirmationLinesAloneRecordsItsEventOnce() throws {
    // OneSignal's paste: `I-ACS023073 Debug mode is enabled…` then `I-ACS023072 Event logged`.
    let (entries, _) = Self.read(try Self.lines("ios-confirmations-only.txt"))
    let events = Read.events(entries)
    XCTAssertEqual(events.map(\.name), ["os_notification_opened"], "two restatements of one call")
    let event = try XCTUnwrap(events.first)
    XCTAssertEqual(event.origin, "app", "the origin `_o` prints")
    XCTAssertEqual(event.source.line, 1)
    XCTAssertEqual(event.source.process, "OneSignalDemo")
    XCTAssertTrue(
      event.raw.hasPrefix("Debug mode is enabled. Marking event as debug and real-time."), event.raw)
    let record = FirebaseLogRecords.ingested(.event(event), input: "paste")
    XCTAssertEqual(
      record.call.parameters,
      [
        "campaign": "Firebase t", "medium": "notification",
        "notification_id": "2ecdd9bf-b2c0-443e-b5b2-7983d453c746", "source": "OneSignal",
      ])
    XCTAssertEqual(record.call.method, "logEvent")

    // firebase/codelab-friendlychat-ios#15, SDK 4.13.0: `Event logged` alone, the old
    // `firebase_` names beside the short names.
    let (old, _) = Self.read(try Self.lines("ios-2018-event-logged.txt"))
    let screen = try XCTUnwrap(Read.events(old).first)
    XCTAssertEqual(Read.events(old).count, 1)
    XCTAssertEqual(screen.name, "screen_view")
    XCTAssertEqual(screen.shortName, "_vs")
    XCTAssertEqual(screen.origin, "auto")
    let screenRecord = FirebaseLogRecords.ingested(.event(screen), input: "paste")
    XCTAssertEqual(screenRecord.kind, .screen)
    XCTAssertEqual(screenRecord.name, "SignInViewController")
    XCTAssertEqual(screenRecord.call.method, "automaticEvent")
  }

  func testTheLinesRestatingALoggedEventAreNotRecordedAgain() throws {
    // firebase-ios-sdk#13002: `Logging event`, `Debug mode… Marking event`, `Event logged`.
    let lines = try Self.lines("ios-restated-event.txt")
    let events = Read.events(Self.read(lines).entries)
    XCTAssertEqual(events.map(\.name), ["screen_view"])
    XCTAssertEqual(events.map(\.source.line), [1], "read from the call's own line")
    XCTAssertEqual(events.first?.parameters.count, 3, "the call's parameters, not the _dbg/_r added later")

    // The same screen shown twice is two events, each restated twice.
    let twice = Read.events(Self.read(lines + lines).entries)
    XCTAssertEqual(twice.map(\.source.line), [1, 22])
    // Two identical calls whose first lines the paste does not hold: two events.
    let confirmations = try Self.lines("ios-confirmations-only.txt")
    XCTAssertEqual(Read.events(Self.read(confirmations + confirmations).entries).map(\.source.line), [1, 19])

    // firebase-ios-sdk#10331: the `Event logged` on line 3 confirms an earlier call (preference
    // 3) whose line the paste does not hold; the call on line 11 (preference 7) is restated on
    // line 17.
    let xcode = Read.events(Self.read(try Self.lines("ios-xcode-event.txt")).entries)
    XCTAssertEqual(xcode.map(\.source.line), [3, 11])
    XCTAssertEqual(
      xcode.map { $0.parameters.first { $0.name == "preference" }?.value }, [.int(3), .int(7)])
  }

  func testUserPropertiesSetAndRemovedAreReadFromTheirConfirmationsOnce() throws {
    // firebase-ios-sdk#227: `User property set` of a property whose `Setting` line came earlier,
    // then `Removing`/`removed` and `Setting`/`set` pairs, each with its system log echo.
    let properties = Read.properties(Self.read(try Self.lines("ios-user-properties.txt")).entries)
    XCTAssertEqual(properties.map(\.name), ["fromFBSignUP", "MyApp_age", "MyApp_gender"])
    XCTAssertEqual(properties.map(\.value), [.string("YES"), nil, .string("Female")])
    XCTAssertEqual(properties.map(\.source.line), [1, 3, 7])

    // Firebase's own tutorial line: an SDK property confirmed.
    let (ads, problems) = Self.read(try Self.lines("ios-ads-doc.txt"))
    XCTAssertEqual(problems, [], "start-up lines are known")
    let gads = try XCTUnwrap(Read.properties(ads).first)
    XCTAssertEqual(gads.name, "_psmvalue_gads")
    XCTAssertEqual(
      FirebaseLogRecords.ingested(.userProperty(gads), input: "paste").call.method, "automaticUserProperty")
  }

  func testTheSDKsInternalParametersAreTheSameInThe2017Wording() throws {
    let (entries, _) = Self.read(try Self.lines("ios-2017-debug.txt"))
    let events = Read.events(entries)
    XCTAssertEqual(events.map(\.name), ["screen_view", "play_podcast"])
    XCTAssertEqual(
      events[1].parameters.map(\.shortName), ["_o", "_sc", "_si", nil], "a short name printed alone")
    XCTAssertEqual(
      events[1].parameters.map(\.name),
      ["ga_event_origin", "ga_screen_class", "ga_screen_id", "podcast_title"])

    // The same calls in today's wording make the same records.
    let today = [
      "[FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, screen_view (_vs), {",
      "    ga_event_origin (_o) = app;", "    ga_screen (_sn) = podcasts;",
      "    ga_screen_class (_sc) = PodcastsViewController;", "    ga_screen_id (_si) = -5273219542419013551;",
      "}",
      "[FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, play_podcast, {",
      "    ga_event_origin (_o) = app;", "    ga_screen_class (_sc) = PodcastsViewController;",
      "    ga_screen_id (_si) = -5273219542419013551;", "    \"podcast_title\" = \"Swift by Sundell\";", "}",
    ].map { $0[...] }
    let current = Read.events(Self.read(today).entries)
    XCTAssertEqual(current.count, 2)
    for (old, new) in zip(events, current) {
      let was = FirebaseLogRecords.ingested(.event(old), input: "paste")
      let now = FirebaseLogRecords.ingested(.event(new), input: "paste")
      XCTAssertEqual(was.kind, now.kind)
      XCTAssertEqual(was.name, now.name)
      XCTAssertEqual(was.call, now.call, "the app's parameters only")
      XCTAssertEqual(was.annotations["sdk_parameters"], now.annotations["sdk_parameters"])
    }
    XCTAssertEqual(
      FirebaseLogRecords.ingested(.event(events[1]), input: "paste").call.parameters,
      ["podcast_title": "Swift by Sundell"])
  }

  func testAUserPropertyIsRecordedAsTextHoweverItIsPrinted() throws {
    let (entries, _) = Self.read(try Self.lines("ios-2017-debug.txt"))
    let properties = Read.properties(entries)
    XCTAssertEqual(properties.map(\.name), ["age", "level"])
    XCTAssertEqual(properties.map(\.value), [.string("84"), .string("84")], "84 and \"84\" alike")
    let record = FirebaseLogRecords.ingested(.userProperty(properties[0]), input: "paste")
    XCTAssertEqual(record.properties, ["value": .string("84")])
    XCTAssertEqual(record.call.parameters, ["value": .string("84")])

    let lines = [
      "11-25 20:15:34.300  4120  4120 V FA      : Setting user property (FE): age, 84",
      "[FirebaseAnalytics][I-ACS023080] Setting user property. Name, value: score, 12.5",
      "[FirebaseAnalytics][I-ACS023080] Setting user property. Name, value: ga_session_id (_sid), 1764101733",
    ].map { $0[...] }
    XCTAssertEqual(
      Read.properties(Self.read(lines).entries).map(\.value),
      [.string("84"), .string("12.5"), .int(1_764_101_733)], "the SDK's own stay typed")
  }

  func testARecordKeepsARepeatedParameterOnceWhereItFirstCameWithItsLastValue() {
    let pairs: [(String, PropertyValue)] = (0..<30).map { ("p\($0 % 20)", .int($0)) }
    let made = FirebaseLogRecords.properties(pairs)
    XCTAssertEqual(made, Properties(pairs))
    XCTAssertEqual(made.keys, (0..<20).map { "p\($0)" })
    XCTAssertEqual(made["p3"], .int(23))
    XCTAssertEqual(FirebaseLogRecords.properties([("a", 1), ("a", 2)]).map(\.value), [2])
  }
}
