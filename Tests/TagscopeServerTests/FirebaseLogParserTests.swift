import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeServer

/// Real Firebase debug log lines (and lines in every console format around the real messages),
/// from `Tests/Fixtures/firebase-log` (each file's source in its README), into typed entries.
final class FirebaseLogParserTests: XCTestCase {
  static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/firebase-log")

  /// The entries and problems of fixture `name`, read line by line (``FirebaseLogWordingsTests/read(_:)``).
  static func read(_ name: String) throws -> (entries: [FirebaseLogEntry], problems: [FirebaseLogProblem]) {
    FirebaseLogWordingsTests.read(try FirebaseLogWordingsTests.lines(name))
  }

  static func events(_ entries: [FirebaseLogEntry]) -> [FirebaseLoggedEvent] {
    entries.compactMap { if case .event(let event) = $0 { event } else { nil } }
  }

  static func properties(_ entries: [FirebaseLogEntry]) -> [FirebaseLoggedUserProperty] {
    entries.compactMap { if case .userProperty(let property) = $0 { property } else { nil } }
  }

  static func parameter(_ name: String, _ short: String? = nil, _ value: PropertyValue)
    -> FirebaseLogParameter
  {
    FirebaseLogParameter(name: name, shortName: short, value: value)
  }

  func testXcodeConsoleEventIsReadOnceFromItsLoggingEventLine() throws {
    let (entries, problems) = try Self.read("ios-xcode-event.txt")
    XCTAssertEqual(problems, [])
    let events = Self.events(entries)
    // Line 3's `Event logged` confirms an earlier call (preference 3) whose own line the paste
    // does not hold; the `Debug mode` line on 17 restates line 11's call.
    XCTAssertEqual(events.count, 2, "the Debug mode line is line 11's event again: \(events)")
    XCTAssertEqual(events.first?.source.line, 3)
    let event = try XCTUnwrap(events.last)
    XCTAssertEqual(event.name, "preferred_temperature_changed")
    XCTAssertNil(event.shortName)
    XCTAssertEqual(event.origin, "app")
    XCTAssertEqual(
      event.source,
      FirebaseLogOrigin(
        platform: .iOS, process: "AnalyticsExample", processID: "51031", line: 11,
        // 2022-10-10 09:11:14.373105-0500
        time: Date(timeIntervalSince1970: 1_665_411_074.373105)))
    XCTAssertEqual(
      event.parameters,
      [
        Self.parameter("ga_event_origin", "_o", "app"),
        Self.parameter("ga_screen_class", "_sc", "AnalyticsViewController"),
        Self.parameter("ga_screen_id", "_si", .int(-4_961_246_490_448_229_631)),
        Self.parameter("preference", nil, .int(7)),
      ])
    XCTAssertTrue(
      event.raw.hasPrefix("Logging event: origin, name, params: app, preferred_temperature_changed, {\n"))
    XCTAssertTrue(event.raw.hasSuffix("preference = 7;\n}"), event.raw)
  }

  func testUserPropertiesSetAndRemovedWithoutTheirSystemLogEchoes() throws {
    let (entries, problems) = try Self.read("ios-user-properties.txt")
    XCTAssertEqual(problems, [])
    XCTAssertEqual(Self.events(entries), [])
    let properties = Self.properties(entries)
    XCTAssertEqual(
      properties.map(\.name), ["fromFBSignUP", "MyApp_age", "MyApp_gender"],
      "each once: the <Debug> lines echo, the `removed`/`set` lines confirm; fromFBSignUP's `Setting` line came earlier"
    )
    XCTAssertEqual(properties.map(\.value), [.string("YES"), nil, .string("Female")])
    XCTAssertEqual(properties.map(\.source.line), [1, 3, 7])
    XCTAssertEqual(properties.map(\.source.process), ["MyApp", "MyApp", "MyApp"])
  }

  func testAndroidEventLineAndTheServiceUploadDumpIsSkipped() throws {
    let (entries, problems) = try Self.read("android-real.txt")
    XCTAssertEqual(problems, [])
    let events = Self.events(entries)
    XCTAssertEqual(events.count, 1)
    let event = try XCTUnwrap(events.first)
    XCTAssertEqual(event.name, "user_engagement")
    XCTAssertEqual(event.shortName, "_e")
    XCTAssertEqual(event.origin, "auto")
    XCTAssertEqual(event.source.platform, .android)
    XCTAssertEqual(
      event.parameters,
      [
        Self.parameter("ga_event_origin", "_o", "auto"),
        Self.parameter("engagement_time_msec", "_et", .int(299_656)),
        Self.parameter("ga_screen_class", "_sc", "LoginActivity"),
        Self.parameter("ga_screen_id", "_si", .int(-7_403_121_824_905_723_112)),
      ])
  }

  func testEveryLogcatFormatNestedItemsAndUserProperties() throws {
    let (entries, problems) = try Self.read("android-formats.txt")
    XCTAssertEqual(problems, [])
    let events = Self.events(entries)
    XCTAssertEqual(events.map(\.name), ["session_start", "screen_view", "add_to_cart", "select_content"])
    XCTAssertEqual(events.map(\.shortName), ["_s", "_vs", nil, nil])
    XCTAssertEqual(events.map(\.origin), ["auto", "app", "app", "app"])
    XCTAssertEqual(
      events.map(\.source.processID), ["4120", "4120", "4120", "4120"], "threadtime, time, brief, studio")
    XCTAssertEqual(events.map(\.source.process), [nil, nil, nil, "com.example.shop"])
    XCTAssertEqual(
      events.map(\.source.time),
      [
        Self.localDate(11, 25, 20, 15, 33.101), Self.localDate(11, 25, 20, 15, 33.512), nil,
        Self.localDate(11, 25, 20, 15, 34.020, year: 2025),
      ],
      "logcat's own time (local, the year of now when it names none), not the arrival time; brief has none")
    XCTAssertEqual(events[0].parameters.last, Self.parameter("ga_session_number", "_sno", .int(3)))
    XCTAssertEqual(events[1].parameters[1], Self.parameter("ga_screen", "_sn", "Home"))
    let cart = events[2].parameters
    XCTAssertEqual(cart[2], Self.parameter("value", nil, .double(9.99)))
    XCTAssertEqual(
      cart[3],
      Self.parameter(
        "items", nil,
        .array([
          .object([
            "item_id": "SKU_123", "item_name": "jeggings", "item_category": "pants", "price": .double(9.99),
            "quantity": .int(2),
          ]),
          .object(["item_id": "SKU_456", "item_name": "boots", "price": .double(24.5), "quantity": .int(1)]),
        ])))
    XCTAssertEqual(
      events[3].parameters.map(\.name), ["ga_event_origin", "content_type", "item_id", "size"],
      "a value holding ', ' stays whole")
    XCTAssertEqual(events[3].parameters[2].value, "Shirt, blue")

    let properties = Self.properties(entries)
    XCTAssertEqual(properties.map(\.name), ["favorite_food", "favorite_food", "ga_session_id"])
    XCTAssertEqual(properties.map(\.value), [.string("pizza"), nil, .int(1_764_101_733)])
    XCTAssertEqual(properties.map(\.shortName), [nil, nil, "_sid"])
  }

  func testLogStreamStylesQuotedValuesAndItemsSpanningLines() throws {
    let (entries, problems) = try Self.read("ios-log-stream.txt")
    XCTAssertEqual(problems, [])
    let events = Self.events(entries)
    XCTAssertEqual(events.map(\.name), ["screen_view", "purchase"])
    XCTAssertEqual(events.map(\.source.process), ["Shop", "Shop"], "log stream default and compact styles")
    XCTAssertEqual(events[0].parameters[1], Self.parameter("ga_screen", "_sn", "Home Screen"))
    XCTAssertEqual(
      events[1].parameters,
      [
        Self.parameter("currency", nil, "EUR"),
        Self.parameter("transaction_id", nil, "T-1001"),
        Self.parameter("ga_event_origin", "_o", "app"),
        Self.parameter(
          "items", nil,
          .array([
            .object([
              "item_id": "SKU_123", "item_name": "Café mug", "price": .double(12.5), "quantity": .int(2),
            ])
          ])),
        Self.parameter("value", nil, .double(25.5)),
      ])
    let property = try XCTUnwrap(Self.properties(entries).first)
    XCTAssertEqual(property.name, "ga_session_id")
    XCTAssertEqual(property.shortName, "_sid")
    XCTAssertEqual(property.source.process, "Shop", "syslog style")
    XCTAssertEqual(
      events.map(\.source.time), [Date(timeIntervalSince1970: 1_764_098_133.101234), nil],
      "log stream's default style has the zone (+0100), compact style none")
  }

  /// A logcat time in this machine's zone: in `year`, or this year unless that is more than a day
  /// ahead (then the year before), as ``FirebaseLogLine/logcatTimestamp(_:now:zone:)`` reads it.
  static func localDate(
    _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ seconds: Double, year: Int? = nil
  ) -> Date? {
    let calendar = Calendar.current
    func date(_ year: Int) -> Date? {
      calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))
        .map { $0.addingTimeInterval(seconds) }
    }
    if let year { return date(year) }
    let now = Date()
    let thisYear = calendar.component(.year, from: now)
    guard let this = date(thisYear) else { return nil }
    return this.timeIntervalSince(now) > 86_400 ? date(thisYear - 1) : this
  }

  func testALogcatTimeTakesTheYearOfNowOrTheYearBeforeAndTheGivenZone() throws {
    let paris = try XCTUnwrap(TimeZone(identifier: "Europe/Paris"))
    let now = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-01-02T10:00:00Z"))
    let line: Substring = "01-02 10:59:28.947  4120  4188 V FA-SVC  : "
    XCTAssertEqual(
      FirebaseLogLine.logcatTimestamp(line, now: now, zone: paris),
      ISO8601DateFormatter().date(from: "2026-01-02T09:59:28Z")?.addingTimeInterval(0.947))
    XCTAssertEqual(
      FirebaseLogLine.logcatTimestamp("12-31 23:59:59.000 V/FA( 1): ", now: now, zone: paris),
      ISO8601DateFormatter().date(from: "2025-12-31T22:59:59Z"), "December's log read in January")
    XCTAssertEqual(
      FirebaseLogLine.logcatTimestamp("2024-03-03 09:39:28.500  1-2  FA  app  V  ", now: now, zone: paris),
      ISO8601DateFormatter().date(from: "2024-03-03T08:39:28Z")?.addingTimeInterval(0.5))
    XCTAssertNil(FirebaseLogLine.logcatTimestamp("V/FA-SVC  ( 2454): ", now: now, zone: paris), "brief")
    XCTAssertNil(FirebaseLogLine.logcatTimestamp("13-03 09:39:28.947 V/FA( 1): ", now: now, zone: paris))
  }

  func testMalformedEntriesAreReportedAndSkippedAndTheRestIsRead() throws {
    let (entries, problems) = try Self.read("malformed.txt")
    XCTAssertEqual(problems.map(\.line), [1, 4, 9])
    XCTAssertEqual(problems[0].message, "logged event level_up: parameter level 7 has no '= value'")
    XCTAssertEqual(
      problems[1].message, "the parameters of a logged event is not closed before the next entry on line 6")
    XCTAssertEqual(
      problems[2].message, "the parameters of a logged event is not closed before the next entry on line 10")
    XCTAssertEqual(Self.events(entries).map(\.name), ["tutorial_complete", "login"])
    XCTAssertEqual(Self.events(entries).map(\.source.line), [6, 10])
  }

  func testAnEntryLeftOpenIsReportedAtTheEndAndAnEndlessOneIsCut() {
    var parser = FirebaseLogParser()
    XCTAssertEqual(
      parser.feed("[FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, a, {"), [])
    XCTAssertEqual(parser.feed("    x = 1;"), [])
    XCTAssertEqual(
      parser.finish(),
      [
        .problem(
          FirebaseLogProblem(
            line: 1, message: "the parameters of a logged event is not closed at the end of the log"))
      ])

    var endless = FirebaseLogParser()
    _ = endless.feed("[FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, a, {")
    var items: [FirebaseLogItem] = []
    for _ in 0..<FirebaseLogParser.lineLimit { items += endless.feed("    x = 1;") }
    XCTAssertEqual(items.count, 1)
    guard case .problem(let problem) = items.first else { return XCTFail("\(items)") }
    XCTAssertEqual(problem.line, 1)
    XCTAssertTrue(problem.message.contains("not closed within"), problem.message)
    XCTAssertEqual(
      endless.feed("V/FA-SVC  ( 1): Logging event: origin=app,name=b,params=Bundle[{}]").count, 1,
      "the next entry is read")
  }
}
