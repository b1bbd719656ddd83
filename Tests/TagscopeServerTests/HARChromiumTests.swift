import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope import-capture` of a real Chromium capture: headless Chromium loaded a page that posts
/// SDK-shaped requests (Segment analytics.js, Amplitude with its CORS preflight, a GA4 gtag.js
/// beacon) to a real `listen`; the HAR made of its DevTools protocol events and what that listen
/// recorded are `Tests/Fixtures/har-chromium`, made by `scripts/har-chromium` (its README).
final class HARChromiumTests: XCTestCase {
  private let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/har-chromium")

  /// The capture's entries as JSON objects.
  private func entries() throws -> [[String: Any]] {
    let data = try Data(contentsOf: fixtures.appendingPathComponent("capture.har"))
    let har = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try XCTUnwrap((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
  }

  /// The capture gives the records listen made of the very same requests, field for field; a
  /// record with no time of the SDK's own (the GA4 beacon) takes the request's start, which is
  /// before listen received it and within the request's duration; the page, its favicon and the
  /// preflight are listed as not decoded.
  func testChromiumCaptureGivesTheRecordsListenMade() throws {
    let text = try String(contentsOf: fixtures.appendingPathComponent("listen.jsonl"), encoding: .utf8)
    let expected = try text.split(separator: "\n").dropFirst().map { line in
      try RecordLineDecoder.decodeRecord(String(line))
    }
    var records: [Record] = []
    let summary = try CaptureImport(hosts: InterceptedHosts(extra: ["127.0.0.1"]), address: "127.0.0.1")
      .run(path: fixtures.appendingPathComponent("capture.har").path) { records += $0 }
    XCTAssertEqual(summary.entries, 6)
    XCTAssertEqual(summary.decoded, 3)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(
      summary.unread.map { "\($0.path) \($0.firstEntry) \($0.reason)" },
      [
        "/page.html 0 no SDK event path", "/favicon.ico 2 no SDK event path", "/2/httpapi 4 a CORS preflight",
      ])
    XCTAssertEqual(
      records.map { $0.outputs.first?.provider }, ["segment", "segment", "amplitude", "ga4", "ga4"])
    XCTAssertEqual(records.count, expected.count)
    let beacon = try XCTUnwrap(entries().first { ($0["_resourceType"] as? String) == "ping" })
    let duration = try XCTUnwrap(beacon["time"] as? Double)
    for (got, want) in zip(records, expected) {
      var got = got
      XCTAssertNotNil(got.outputs[0].extra["response_status"], "record \(got.seq)")
      got.outputs[0].extra["response_status"] = nil
      if got.outputs[0].provider == "ga4" {
        XCTAssertLessThanOrEqual(got.timeMilliseconds, want.timeMilliseconds, "record \(got.seq)")
        XCTAssertLessThanOrEqual(
          want.timeMilliseconds, got.timeMilliseconds + Int64(duration.rounded(.up)) + 1, "record \(got.seq)")
        got.timeMilliseconds = want.timeMilliseconds
      }
      XCTAssertEqual(got, want, "record \(want.seq)")
    }
  }
}
