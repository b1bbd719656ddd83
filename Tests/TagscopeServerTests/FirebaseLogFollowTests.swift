import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `listen --log firebase FILE` on a real server: the file is read and then followed, each entry
/// becomes a `firebase` record of its device judged by Firebase's rules as the app's own calls
/// are, the SDK's own events and names are recorded without being flagged, and a bad entry is a
/// problem naming the file and line.
final class FirebaseLogFollowTests: XCTestCase {
  static let appended = [
    "V/FA-SVC  ( 4120): Logging event: origin=app,name=level_up,params=Bundle[{ga_event_origin(_o)=app, level=7}]"
  ]

  static func directory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fblog-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  func testAFollowedLogBecomesRecordsJudgedByFirebaseRulesAndAppendedLinesArrive() async throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("sim.log")
    let real = try String(
      contentsOf: FirebaseLogParserTests.fixtures.appendingPathComponent("ios-xcode-event.txt"),
      encoding: .utf8)
    let longValue = String(repeating: "x", count: 120)
    let lines =
      real
        + """
        2022-10-10 09:11:15.000000-0500 AnalyticsExample[51031:8040698] 9.6.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, google_promo_viewed, {
            ga_event_origin (_o) = app;
            promo = \(longValue);
        }
        2022-10-10 09:11:16.000000-0500 AnalyticsExample[51031:8040698] 9.6.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: auto, session_start (_s), {
            ga_event_origin (_o) = auto;
            ga_session_id (_sid) = 1764101733;
        }
        2022-10-10 09:11:16.100000-0500 AnalyticsExample[51031:8040698] 9.6.0 - [FirebaseAnalytics][I-ACS023080] Setting user property. Name, value: ga_session_id (_sid), 1764101733
        2022-10-10 09:11:16.200000-0500 AnalyticsExample[51031:8040698] 9.6.0 - [FirebaseAnalytics][I-ACS023080] Setting user property. Name, value: favorite_food, a_value_much_longer_than_thirty_six_characters
        2022-10-10 09:11:17.000000-0500 AnalyticsExample[51031:8040698] 9.6.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, level_up, {
            level 7;
        }

        """
    try Data(lines.utf8).write(to: log)
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    // The fixture's line 3 confirms an earlier call (preference 3): a record of its own.
    let all = collector.waitForRecords(6)
    XCTAssertEqual(all.first?.outputs.first?.calls.first?.parameters, ["preference": 3])
    let records = Array(all.dropFirst())
    XCTAssertEqual(
      records.map(\.name),
      [
        "preferred_temperature_changed", "google_promo_viewed", "session_start", "ga_session_id",
        "favorite_food",
      ])
    XCTAssertEqual(Set(records.map(\.source)), ["AnalyticsExample@iOS · sim"])
    XCTAssertEqual(records.map { $0.outputs.map(\.provider) }, Array(repeating: ["firebase"], count: 5))
    let rules = records.map { $0.outputs[0].violations.map(\.rule).sorted() }
    XCTAssertEqual(rules[0], [], "the SDK's own ga_ parameters are beside the call, not judged")
    XCTAssertEqual(rules[1], ["firebase.event-name-reserved-prefix", "firebase.parameter-value-length"])
    XCTAssertEqual(rules[2], [], "session_start is the SDK's own: recorded, not flagged")
    XCTAssertEqual(rules[3], [], "ga_session_id (_sid) is the SDK's own user property")
    XCTAssertEqual(rules[4], ["firebase.user-property-value-length"])

    let first = records[0].outputs[0]
    XCTAssertEqual(
      first.calls,
      [
        CallDescription(
          method: "logEvent", name: "preferred_temperature_changed", parameters: ["preference": 7])
      ])
    XCTAssertEqual(first.extra["origin"], "app")
    XCTAssertEqual(
      Payload.object(first.extra["sdk_parameters"])["ga_screen_class"], "AnalyticsViewController")
    XCTAssertEqual(Payload.object(first.extra["short_names"])["ga_event_origin"], "_o")
    XCTAssertEqual(first.extra["line"], .int(11))
    XCTAssertEqual(records[0].kind, .event)
    XCTAssertEqual(records[2].outputs[0].calls.first?.method, "automaticEvent")
    XCTAssertEqual(records[2].outputs[0].extra["origin"], "auto")
    XCTAssertEqual(records[2].context.session?.id, "1764101733", "the session the SDK names")
    XCTAssertEqual(records[3].kind, .identify)
    XCTAssertEqual(records[3].outputs[0].calls.first?.method, "automaticUserProperty")
    XCTAssertEqual(records[4].properties, ["value": "a_value_much_longer_than_thirty_six_characters"])

    XCTAssertTrue(
      eventually {
        collector.events.contains {
          if case .problem(let source, let message) = $0 {
            return source == "firebase log sim"
              && message == "\(log.path) line 35: logged event level_up: parameter level 7 has no '= value'"
          }
          return false
        }
      }, "\(collector.events)")

    // Followed: a line appended later is read.
    let handle = try FileHandle(forWritingTo: log)
    handle.seekToEndOfFile()
    handle.write(Data((Self.appended.joined(separator: "\n") + "\n").utf8))
    try handle.close()
    let more = collector.waitForRecords(7)
    XCTAssertEqual(more.last?.name, "level_up")
    XCTAssertEqual(more.last?.properties, ["level": 7])
    XCTAssertEqual(more.last?.source, "firebase@Android · sim")
    try await server.shutdown()
    XCTAssertEqual(server.statistics.rejected[.badLogEntry], 1)
  }

  func testAFileRewrittenShorterIsReadAgainFromItsStart() async throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("pixel.txt")
    let long =
      "V/FA-SVC  ( 1): Logging event: origin=app,name=first_event,params=Bundle[{ga_event_origin(_o)=app, padding=\(String(repeating: "p", count: 200))}]\n"
    try Data(long.utf8).write(to: log)
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["first_event"])
    try Data("V/FA-SVC  ( 2): Logging event: origin=app,name=after_restart,params=Bundle[{}]\n".utf8).write(
      to: log)
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["first_event", "after_restart"])
    XCTAssertTrue(
      collector.events.contains {
        if case .problem(_, let message) = $0 { return message.contains("was truncated") }
        return false
      })
    try await server.shutdown()
  }

  func testAFileReplacedAtItsPathIsFollowedAnew() async throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("pixel.txt")
    try Data(Self.appended.joined(separator: "\n").appending("\n").utf8).write(to: log)
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["level_up"])
    // Written to a new file, then renamed over the old one: a new inode at the same path.
    let line = "V/FA-SVC  ( 2): Logging event: origin=app,name=after_replace,params=Bundle[{level=8}]\n"
    try Data((String(repeating: "\n", count: 300) + line).utf8).write(to: log, options: .atomic)
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["level_up", "after_replace"])
    XCTAssertTrue(
      collector.events.contains {
        if case .problem(_, let message) = $0 { return message.contains("was replaced") }
        return false
      })
    try await server.shutdown()
  }

  func testAMissingFileIsAClearError() async throws {
    let (server, _) = try await startServer()
    defer { Task { try? await server.shutdown() } }
    XCTAssertThrowsError(try server.follow(LogInput(format: .firebase, path: "/nonexistent/device.log"))) {
      XCTAssertEqual(
        "\($0)", "cannot read the firebase log /nonexistent/device.log: No such file or directory")
    }
  }

  func testLogArgumentsArePairsOfAKnownFormatAndAPath() throws {
    XCTAssertEqual(
      try LogInput.parse(["firebase", "a/ios.log", "FIREBASE", "-"]),
      [LogInput(format: .firebase, path: "a/ios.log"), LogInput(format: .firebase, path: "-")])
    XCTAssertEqual(LogInput(format: .firebase, path: "logs/pixel8.txt").name, "pixel8")
    XCTAssertEqual(LogInput(format: .firebase, path: "-").name, "stdin")
    XCTAssertThrowsError(try LogInput.parse(["amplitude", "x.log"])) {
      XCTAssertEqual("\($0)", "--log: unknown log format 'amplitude' (known: firebase)")
    }
    XCTAssertThrowsError(try LogInput.parse(["firebase"]))
    XCTAssertThrowsError(try LogInput.parse(["firebase", "-", "firebase", "-"]))
  }
}
