import AnalyticsHub
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// The official Python SDKs (from PyPI, in `.venv`) pointed at a real server on a free loopback
/// port: every event they send must arrive as the right record, from the right source, in order.
final class SDKClientTests: XCTestCase {
  /// Runs `script` and checks its records; each comes from the device its payload names, or from
  /// the connection (`provider@127.0.0.1`) when it names none (`sources`, default all).
  private func run(
    _ script: String, expecting expected: [(RecordKind, String)], provider: String, sources: [String]? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) async throws -> [Record] {
    let (server, collector) = try await startServer()
    let result = try runSDKClient(script, port: server.port)
    let records = collector.waitForRecords(expected.count)
    try await server.shutdown()
    XCTAssertEqual(result.status, 0, "\(script) failed: \(result.output)", file: file, line: line)
    XCTAssertEqual(
      records.map { "\($0.kind.rawValue) \($0.name)" }, expected.map { "\($0.0.rawValue) \($0.1)" },
      "\(script) output: \(result.output)", file: file, line: line)
    XCTAssertEqual(
      records.map(\.source), sources ?? Array(repeating: "\(provider)@127.0.0.1", count: expected.count),
      file: file, line: line)
    for record in records {
      XCTAssertEqual(record.outputs.map(\.provider), [provider], file: file, line: line)
      XCTAssertEqual(record.outputs.first?.status, .sent, file: file, line: line)
      XCTAssertEqual(record.outputs.first?.calls.count, 1, file: file, line: line)
      // `raw` marks a record made from an SDK's request; empty where the call holds the message.
      XCTAssertNotNil(record.raw, file: file, line: line)
    }
    XCTAssertEqual(server.statistics.accepted, expected.count, file: file, line: line)
    XCTAssertEqual(server.statistics.totalRejected, 0, "\(server.statistics.summary)", file: file, line: line)
    return records
  }

  /// With `--token` set to each SDK's own key, the official clients get through untouched; with
  /// another token Segment's client is refused (401) and nothing is recorded.
  func testOfficialSDKsAuthenticateWithTheirOwnKeyWhenATokenIsRequired() async throws {
    for (script, key) in [
      ("segment_client", "seg-write-key"), ("amplitude_client", "amp-api-key"),
      ("mixpanel_client", "mp-token"),
      ("posthog_client", "phc-project-key"), ("mparticle_client", "mp-server-key"),
    ] {
      let (server, collector) = try await startServer(ListenConfiguration(port: 0, token: key))
      let result = try runSDKClient(script, port: server.port)
      collector.waitForRecords(1)
      try await server.shutdown()
      XCTAssertEqual(result.status, 0, "\(script): \(result.output)")
      XCTAssertGreaterThan(collector.records.count, 0, script)
      XCTAssertNil(server.statistics.rejected[.badToken], "\(script): \(server.statistics.summary)")
    }
    let (server, collector) = try await startServer(ListenConfiguration(port: 0, token: "not-the-write-key"))
    let result = try runSDKClient("segment_client", port: server.port)
    try await server.shutdown()
    XCTAssertNotEqual(result.status, 0, "the SDK saw its requests refused")
    XCTAssertEqual(collector.records.count, 0)
    XCTAssertGreaterThan(server.statistics.rejected[.badToken] ?? 0, 0)
  }

  func testSegmentPythonSDK() async throws {
    let records = try await run(
      "segment_client",
      expecting: [
        (.identify, "identify"), (.screen, "Podcasts"), (.event, "Play Podcast"), (.screen, "Favorites"),
        (.event, "group"), (.event, "alias"), (.event, "Pause Podcast"),
      ], provider: "segment")
    guard records.count == 7 else { return }
    XCTAssertEqual(records[0].properties["plan"], "pro")
    XCTAssertEqual(records[2].properties["podcast_duration"], .int(1830))
    XCTAssertEqual(records[2].outputs[0].calls[0].method, "track")
    XCTAssertEqual(records[2].outputs[0].calls[0].name, "Play Podcast")
    XCTAssertEqual(records[2].outputs[0].extra["writeKey"], "seg-write-key")
    XCTAssertEqual(records[2].context.session?.user, "user-42")
    XCTAssertEqual(records[6].properties["position"], .double(12.5))
    XCTAssertEqual(records[6].properties["autoplay"], .bool(true))
    // The message whole is the call's parameters; `raw` does not repeat it.
    XCTAssertEqual(
      Payload.object(records[2].outputs[0].calls[0].parameters["properties"])["podcast_title"],
      "Swift by Sundell")
    XCTAssertEqual(records[2].raw, "")
  }

  func testRudderStackPythonSDK() async throws {
    let records = try await run(
      "rudderstack_client",
      expecting: [
        (.identify, "identify"), (.event, "Add Favorite"), (.screen, "Player"), (.event, "Share Podcast"),
      ], provider: "rudderstack")
    guard records.count == 4 else { return }
    XCTAssertEqual(records[1].properties["podcast_title"], "Under the Radar")
    XCTAssertEqual(records[1].outputs[0].extra["writeKey"], "rudder-write-key")
  }

  /// rudder-sdk-python batches up to 4 MB on Segment's `/v1/batch` path: one batch of 40 events
  /// of 30 KB (1.2 MB, past Segment's 500 KB) is taken whole, as RudderStack takes it.
  func testRudderStackPythonSDKBatchPastSegmentsLimitIsTakenWhole() async throws {
    let (server, collector) = try await startServer()
    let result = try runSDKClient("rudderstack_large_batch_client", port: server.port)
    let records = collector.waitForRecords(40)
    try await server.shutdown()
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertEqual(records.map(\.name), (0..<40).map { "Big \($0)" })
    XCTAssertEqual(Set(records.flatMap { $0.outputs.map(\.provider) }), ["rudderstack"])
    XCTAssertEqual(server.statistics.httpRequests, 1, "one batch: \(server.statistics.summary)")
    XCTAssertEqual(server.statistics.totalRejected, 0, server.statistics.summary)
  }

  func testAmplitudePythonSDK() async throws {
    let records = try await run(
      "amplitude_client",
      expecting: [
        (.identify, "identify"), (.event, "Play Podcast"), (.event, "Pause Podcast"),
        (.identify, "identify"), (.event, "Batch Play Podcast"), (.event, "Batch Pause Podcast"),
      ], provider: "amplitude",
      sources: [
        "amplitude@127.0.0.1", "amplitude@127.0.0.1", "amplitude@device-123", "amplitude@127.0.0.1",
        "amplitude@127.0.0.1", "amplitude@device-123",
      ])
    guard records.count == 6 else { return }
    XCTAssertEqual(records[0].properties["$set"], ["plan": "pro"])
    XCTAssertEqual(records[1].properties["podcast_duration"], .int(1830))
    XCTAssertEqual(records[1].outputs[0].calls[0].name, "Play Podcast")
    // A device id is not a user: the device's visitor is anonymous.
    XCTAssertNil(records[2].context.session?.user)
    XCTAssertEqual(records[2].context.session?.state, "unauthenticated")
    XCTAssertEqual(records[2].context.session?.extra["anonymousId"], "device-123")
  }

  func testMixpanelPythonSDK() async throws {
    let records = try await run(
      "mixpanel_client",
      expecting: [
        (.event, "Play Podcast"), (.identify, "$set"), (.event, "Pause Podcast"), (.event, "Old Listen"),
      ],
      provider: "mixpanel", sources: Array(repeating: "mixpanel@user-42", count: 4))
    guard records.count == 4 else { return }
    XCTAssertEqual(records[0].properties["podcast_duration"], .int(1830))
    XCTAssertNil(records[0].properties["token"])
    XCTAssertEqual(records[0].outputs[0].extra["token"], "mp-token")
    XCTAssertEqual(records[1].properties["plan"], "pro")
    XCTAssertEqual(records[1].outputs[0].calls[0].method, "engage")
  }

  /// Mixpanel's `/import` imports the events of a batch that pass and lists the others in
  /// `failed_records` with a `400`: the official SDK, importing a batch of which one event is over
  /// 1 MB, raises on that answer, and `listen` records the other two.
  func testMixpanelPythonSDKImportOfABatchWithAnEventTooLargeKeepsTheOthers() async throws {
    let (server, collector) = try await startServer()
    let result = try runSDKClient("mixpanel_partial_import_client", port: server.port)
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertTrue(result.output.contains("failed validation"), result.output)
    XCTAssertEqual(records.map(\.name), ["Before", "After"])
    XCTAssertEqual(records.map { $0.properties["n"] }, [.int(1), .int(3)])
    XCTAssertEqual(server.statistics.accepted, 2)
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 1, server.statistics.summary)
  }

  func testPostHogPythonSDK() async throws {
    let records = try await run(
      "posthog_client",
      expecting: [
        (.event, "Play Podcast"), (.identify, "identify"), (.screen, "Podcasts"), (.event, "Pause Podcast"),
      ],
      provider: "posthog", sources: Array(repeating: "posthog@Linux · user-42", count: 4))
    guard records.count == 4 else { return }
    XCTAssertEqual(records[0].properties["podcast_title"], "Swift by Sundell")
    XCTAssertEqual(records[1].properties["plan"], "pro")
    XCTAssertEqual(records[0].outputs[0].extra["api_key"], "phc-project-key")
  }

  func testSnowplowPythonTracker() async throws {
    let perRun: [(RecordKind, String)] = [
      (.event, "play"), (.event, "add_favorite"), (.screen, "Podcasts"), (.screen, "Favorites"),
    ]
    let records = try await run("snowplow_client", expecting: perRun + perRun, provider: "snowplow")
    guard records.count == 8 else { return }
    XCTAssertEqual(records[0].properties["category"], "player")
    XCTAssertEqual(records[0].properties["value"], .double(1830))
    XCTAssertEqual(records[1].properties["podcast_title"], "Under the Radar")
    XCTAssertEqual(records[1].outputs[0].calls[0].method, "trackSelfDescribingEvent")
    XCTAssertEqual(records[5].properties["podcast_title"], "Under the Radar")
    XCTAssertEqual(records[0].context.session?.user, "user-42")
  }
}
