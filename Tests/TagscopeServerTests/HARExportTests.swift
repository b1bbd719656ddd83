import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har`: a recording's wire records as a HAR 1.2 capture whose import gives the
/// same records back. The recording is what listen made of the Python SDKs' requests
/// (`Tests/Fixtures/har-mitmproxy/listen.jsonl`).
final class HARExportTests: XCTestCase {
  private let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/har-mitmproxy")

  private func recordLines(_ url: URL) throws -> [Record] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").dropFirst().map { line in
      try RecordLineDecoder.decodeRecord(String(line))
    }
  }

  /// The HAR file of `records`, and the outcomes of those with no entry.
  private func exported(_ records: [Record]) throws -> (har: String, skipped: [HARExport.Outcome]) {
    let export = try HARRebuildRoundTrip().exported(records)
    return (export.har, export.skipped)
  }

  private func imported(_ har: String) throws -> (records: [Record], summary: CaptureImport.Summary) {
    var records: [Record] = []
    var bytes = Array(har.utf8)
    let summary = try bytes.withUnsafeMutableBufferPointer { buffer in
      try CaptureImport(hosts: InterceptedHosts(), address: "127.0.0.1")
        .run(bytes: UnsafeBufferPointer(buffer)) { records += $0 }
    }
    return (records, summary)
  }

  /// Segment, PostHog, Amplitude and Mixpanel records listen made, exported and imported again: the
  /// same records field for field (kinds, names, properties, contexts, calls, credentials, times).
  func testExportedCaptureImportsAsTheSameRecords() throws {
    let recording = try recordLines(fixtures.appendingPathComponent("listen.jsonl"))
    let (har, skipped) = try exported(recording)
    XCTAssertEqual(skipped, [])
    let (records, summary) = try imported(har)
    XCTAssertEqual(summary.entries, recording.count)
    XCTAssertEqual(summary.decoded, recording.count)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// Each entry has what HAR 1.2 requires of it (mitmproxy's and Chromium's readers take the
  /// same), the vendor's answer as its status (0 when the recording has none) and a comment saying
  /// the request was rebuilt.
  func testEntriesHaveTheFieldsHAR12Requires() throws {
    var recording = try recordLines(fixtures.appendingPathComponent("listen.jsonl"))
    recording[0].outputs[0].extra["response_status"] = .int(503)
    let (har, _) = try exported(recording)
    let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(har.utf8)) as? [String: Any])["log"]
    let file = try XCTUnwrap(log as? [String: Any])
    XCTAssertEqual(file["version"] as? String, "1.2")
    XCTAssertNotNil((file["creator"] as? [String: Any])?["version"] as? String)
    let entries = try XCTUnwrap(file["entries"] as? [[String: Any]])
    XCTAssertEqual(entries.count, recording.count)
    for entry in entries {
      XCTAssertEqual(
        Set(entry.keys),
        ["startedDateTime", "time", "request", "response", "cache", "timings", "comment"])
      let request = try XCTUnwrap(entry["request"] as? [String: Any])
      for key in [
        "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize",
      ] {
        XCTAssertNotNil(request[key], key)
      }
      let response = try XCTUnwrap(entry["response"] as? [String: Any])
      for key in [
        "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize",
        "bodySize",
      ] {
        XCTAssertNotNil(response[key], key)
      }
      XCTAssertTrue(
        (entry["comment"] as? String)?.hasPrefix("rebuilt by tagscope export from record") ?? false)
    }
    XCTAssertEqual(entries.map { ($0["response"] as? [String: Any])?["status"] as? Int }.prefix(2), [503, 0])
    XCTAssertEqual(entries.first?["startedDateTime"] as? String, "2026-11-29T10:01:44.720Z")
  }

  /// An in-app dispatch has no request and a vendor whose requests are not rebuilt is said, never
  /// written as a wrong request.
  func testRecordsWithNoRequestAreCountedNotWritten() throws {
    let inApp = Record(
      seq: 1, time: Date(), kind: .event, name: "play",
      outputs: [ProviderOutput(provider: "firebase", status: .sent)])
    let braze = Record(
      seq: 2, time: Date(), kind: .event, name: "play",
      outputs: [ProviderOutput(provider: "braze", status: .sent)], raw: "")
    let (har, skipped) = try exported([inApp, braze])
    XCTAssertEqual(
      skipped,
      [
        .inApp,
        .notRebuilt(
          provider: "braze",
          reason:
            "it keeps no `request`: its request's own fields are kept by the first record of its request, which is not exported before it"
        ),
      ])
    XCTAssertEqual(try imported(har).summary.entries, 0)
  }

  /// mitmproxy loads the exported file (`mitmdump -nr`) and its own HAR of the flows it read
  /// (`--set hardump`) imports as the same records again.
  func testMitmproxyLoadsTheExportedCapture() throws {
    let mitmdump = packageRoot.appendingPathComponent(".venv/mitmproxy/bin/mitmdump")
    guard FileManager.default.isExecutableFile(atPath: mitmdump.path) else {
      throw XCTSkip("\(mitmdump.path) not installed (scripts/bench proxy makes it)")
    }
    let recording = try recordLines(fixtures.appendingPathComponent("listen.jsonl"))
    let directory = try TemporaryDirectory()
    let exported = directory.file("export.har")
    try Data(self.exported(recording).har.utf8).write(to: exported)
    let process = Process()
    process.executableURL = mitmdump
    process.arguments = ["-q", "-nr", exported.path, "--set", "hardump=" + directory.file("again.har").path]
    let run = try runToEnd(process)
    XCTAssertEqual(run.status, 0, run.output)
    let again = try String(contentsOf: directory.file("again.har"), encoding: .utf8)
    let (records, summary) = try imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// The records listen made of real Chromium requests (Segment, Amplitude and a GA4 gtag.js hit
  /// of two events, one entry for both) round trip too.
  func testChromiumRecordsRoundTrip() throws {
    let recording = try recordLines(
      packageRoot.appendingPathComponent("Tests/Fixtures/har-chromium/listen.jsonl"))
    XCTAssertEqual(Set(recording.map { $0.outputs.first?.provider }), ["segment", "amplitude", "ga4"])
    let (har, skipped) = try exported(recording)
    XCTAssertEqual(skipped, [.sameRequest])
    let (records, summary) = try imported(har)
    XCTAssertEqual(summary.entries, recording.count - 1)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }
}
