import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import XCTest

/// `listen --record FILE` continuing a recording written within the retry window remembers the
/// ids of its last SDK messages: an SDK's retry arriving after the restart (its `503`, or its
/// reply lost when `listen` stopped) is skipped and counted, not recorded twice. GA4 hits, which
/// carry no id, are not remembered across a restart; nor is anything of a recording last written
/// longer ago than the window.
final class ContinuedRetriesTests: XCTestCase {
  /// A Segment batch as analytics-python sends it, and a PostHog batch as posthog-python does:
  /// their ids, the same on every attempt; and a GA4 Measurement Protocol hit (no id).
  private static func send(_ port: Int, segment ids: [String], posthog: String, ga4: Bool = true) throws {
    let messages = ids.map { #"{"type":"track","userId":"u","event":"Seg \#($0)","messageId":"\#($0)"}"# }
    let segment =
      #"{"writeKey":"k","sentAt":"2026-11-26T05:00:00Z","batch":[\#(messages.joined(separator: ","))]}"#
    XCTAssertEqual(try httpRequest(port: port, path: "/v1/batch", body: segment)?.status, 200)
    let capture =
      #"{"api_key":"phc","batch":[{"event":"PH \#(posthog)","distinct_id":"u","uuid":"\#(posthog)","properties":{}}]}"#
    XCTAssertEqual(try httpRequest(port: port, path: "/batch/", body: capture)?.status, 200)
    guard ga4 else { return }
    let hit = #"{"client_id":"c.1","events":[{"name":"level_up","params":{"level":2}}]}"#
    XCTAssertEqual(
      try httpRequest(port: port, path: "/mp/collect?measurement_id=G-1&api_secret=s", body: hit)?.status, 204
    )
  }

  private func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "continued-retries-\(UUID().uuidString).jsonl")
  }

  func testRetriesArrivingAfterARestartOnTheSameRecordingAreRecordedOnce() async throws {
    let file = temporaryFile()
    defer { try? FileManager.default.removeItem(at: file) }
    _ = try await runListen(recording: file) { port, _ in
      try Self.send(port, segment: ["m-1", "m-2"], posthog: "p-1")
    }
    XCTAssertEqual(try recordedRecords(file).count, 4)
    let (_, statistics, notices) = try await runListen(recording: file) { port, _ in
      // The SDKs' retries of the requests the first `listen` took, then a new message.
      try Self.send(port, segment: ["m-1", "m-2"], posthog: "p-1")
      try Self.send(port, segment: ["m-3"], posthog: "p-2", ga4: false)
    }
    XCTAssertEqual(statistics.retriesSkipped, 3, statistics.summary)
    XCTAssertTrue(
      notices.contains { $0.contains("the ids of its last 3 SDK messages kept until ") }, "\(notices)")
    XCTAssertEqual(
      try recordedRecords(file).map(\.name),
      ["Seg m-1", "Seg m-2", "PH p-1", "level_up", "level_up", "Seg m-3", "PH p-2"],
      "each message with an id once; the GA4 hit, known by payload only, again")
  }

  func testARecordingWrittenLongerAgoThanTheRetryWindowRemembersNothing() async throws {
    let file = temporaryFile()
    defer { try? FileManager.default.removeItem(at: file) }
    _ = try await runListen(recording: file) { port, _ in
      try Self.send(port, segment: ["m-1"], posthog: "p-1", ga4: false)
    }
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-11 * 60)], ofItemAtPath: file.path)
    let statistics = try await runListen(recording: file) { port, _ in
      try Self.send(port, segment: ["m-1"], posthog: "p-1", ga4: false)
    }.statistics
    XCTAssertEqual(statistics.retriesSkipped, 0, statistics.summary)
    XCTAssertEqual(try recordedRecords(file).count, 4, "past any SDK's retries: the app sent them again")
  }
}
