import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope import-capture`: HAR entries through the SDK decoders of `listen`. The mitmproxy
/// capture and the listen recording of the same SDK run are `Tests/Fixtures/har-mitmproxy`,
/// made by `scripts/har-fixture` (its README).
final class HARImportTests: XCTestCase {
  private let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/har-mitmproxy")

  private func recordLines(_ url: URL) throws -> [Record] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").dropFirst().map { line in
      try RecordLineDecoder.decodeRecord(String(line))
    }
  }

  private func importing(
    _ har: String, _ importer: CaptureImport = CaptureImport(hosts: InterceptedHosts())
  ) throws -> (records: [Record], summary: CaptureImport.Summary) {
    var records: [Record] = []
    var bytes = Array(har.utf8)
    let summary = try bytes.withUnsafeMutableBufferPointer { buffer in
      try importer.run(bytes: UnsafeBufferPointer(buffer)) { records += $0 }
    }
    return (records, summary)
  }

  /// A HAR file of `entries` (each an entry object's JSON).
  private func har(_ entries: [String]) -> String {
    #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":["#
      + entries.joined(separator: ",") + "]}}"
  }

  private func quoted(_ text: String) -> String {
    String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
  }

  /// One entry's JSON: a POST of `text` to `url`.
  private func entry(
    url: String, text: String? = nil, encoding: String? = nil, headers: [(String, String)] = [],
    started: String = "2026-11-20T09:30:15.123456+02:00", status: String = "200"
  ) -> String {
    let headerList = headers.map { #"{"name":\#(quoted($0.0)),"value":\#(quoted($0.1))}"# }
      .joined(separator: ",")
    var postData = ""
    if let text {
      postData =
        #","postData":{"mimeType":"application/json","text":\#(quoted(text))"#
        + (encoding.map { #","encoding":\#(quoted($0))"# } ?? "") + "}"
    }
    return #"{"startedDateTime":"\#(started)","request":{"method":"POST","url":\#(quoted(url)),"#
      + #""httpVersion":"HTTP/1.1","headers":[\#(headerList)],"queryString":[]\#(postData)},"#
      + #""response":{"status":\#(status),"headers":[],"content":{"size":0}},"timings":{}}"#
  }

  private let amplitude = #"{"api_key":"amp-key","events":[{"event_type":"Play","user_id":"user-42"}]}"#

  /// The Python SDKs' requests captured by real mitmproxy give the records listen made of the very
  /// same requests: same kinds, names, properties, contexts, calls, credentials and times.
  func testMitmproxyCaptureGivesTheRecordsListenMade() throws {
    let expected = try recordLines(fixtures.appendingPathComponent("listen.jsonl"))
    var records: [Record] = []
    let summary = try CaptureImport(hosts: InterceptedHosts(extra: ["127.0.0.1"]), address: "127.0.0.1")
      .run(path: fixtures.appendingPathComponent("capture.har").path) { records += $0 }
    XCTAssertEqual(summary.entries, 8)
    XCTAssertEqual(summary.decoded, 8)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, expected.count)
    XCTAssertEqual(
      Set(expected.map(\.outputs.first?.provider)), ["segment", "posthog", "amplitude", "mixpanel"])
    for (got, want) in zip(records, expected) {
      var got = got
      for index in got.outputs.indices {
        XCTAssertEqual(got.outputs[index].extra["response_status"], .int(200), "record \(got.seq)")
        got.outputs[index].extra["response_status"] = nil
      }
      XCTAssertEqual(got, want, "record \(want.seq)")
    }
  }

  /// Without a time of the SDK's own, a record takes the entry's `startedDateTime` (not the time
  /// of the import); the vendor's status is kept; an error status is reported, its records kept.
  func testCaptureTimeAndVendorStatusAreKept() throws {
    let (records, summary) = try importing(
      har([
        entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude),
        entry(
          url: "https://api2.amplitude.com/2/httpapi", text: amplitude, started: "2026-11-20T07:31:00.5Z",
          status: "503"),
      ]))
    XCTAssertEqual(records.map(\.timeMilliseconds), [1_795_159_815_123, 1_795_159_860_500])
    XCTAssertEqual(records.map { $0.outputs[0].extra["response_status"] }, [.int(200), .int(503)])
    XCTAssertEqual(
      summary.problems.map(\.description),
      ["entry 1, response.status: the vendor answered 503 to POST /2/httpapi (its records are kept)"])
  }

  /// Bodies as tools write them: decoded text with the `Content-Encoding` header kept (mitmproxy,
  /// Chromium), gzip bytes in base64 (`encoding` or `_encoding`), plain base64.
  func testBodiesInEveryEncodingToolsWrite() throws {
    let gzipped = try gzip(Array(amplitude.utf8))
    let base64 = Data(gzipped).base64EncodedString()
    let (records, summary) = try importing(
      har([
        entry(
          url: "https://api2.amplitude.com/2/httpapi", text: amplitude,
          headers: [("Content-Encoding", "gzip")]),
        entry(
          url: "https://api2.amplitude.com/2/httpapi", text: base64, encoding: "base64",
          headers: [("Content-Encoding", "gzip")]),
        entry(
          url: "https://api2.amplitude.com/2/httpapi", text: Data(amplitude.utf8).base64EncodedString(),
          encoding: "base64"),
      ]).replacingOccurrences(of: #""encoding":"base64"}}],"#, with: #""_encoding":"base64"}}],"#))
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(records.map(\.name), ["Play", "Play", "Play"])
  }

  /// A GET hit carries its event in the URL's query, percent-encoded, as listen reads it.
  func testQueryStringHitsAreDecoded() throws {
    let hit = entry(
      url:
        "https://logs.xiti.com/hit.xiti?s=552987&type=click&click=N&p=catalogue%3A%3Aopen_podcast&idclient=v-1"
    ).replacingOccurrences(of: #""method":"POST""#, with: #""method":"GET""#)
    let (records, summary) = try importing(har([hit]))
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(records.map(\.outputs.first?.provider), ["piano"])
    XCTAssertEqual(records.first?.outputs.first?.calls.first?.name, "click.navigation")
    XCTAssertEqual(records.first?.outputs.first?.calls.first?.parameters["click_chapter1"], "catalogue")
  }

  /// Requests no decoder reads are counted and listed by host, path and reason, with their first
  /// entry: other hosts, set-up requests, unknown paths of an SDK's host.
  func testRequestsNotDecodedAreCountedAndListed() throws {
    let (records, summary) = try importing(
      har([
        entry(url: "https://example.com/track", text: "{}"),
        entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude),
        entry(url: "https://example.com/track?x=1", text: "{}"),
        entry(url: "https://api2.amplitude.com/nothing-here", text: "{}"),
      ]))
    XCTAssertEqual(records.count, 1)
    XCTAssertEqual(summary.entries, 4)
    XCTAssertEqual(summary.decoded, 1)
    XCTAssertEqual(
      summary.unread,
      [
        .init(
          host: "example.com", path: "/track", reason: "not an SDK host (import-capture --host adds one)",
          firstEntry: 0,
          count: 2),
        .init(
          host: "api2.amplitude.com", path: "/nothing-here", reason: "no SDK event path", firstEntry: 3,
          count: 1),
      ])
  }

  /// Each malformed entry is reported with its index and field, and the other entries are
  /// imported; a file truncated inside an entry keeps the entries before it.
  func testMalformedEntriesAreReportedOneByOne() throws {
    let good = entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude)
    let (records, summary) = try importing(
      har([
        good,
        entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude, encoding: "rot13"),
        entry(url: "https://api2.amplitude.com/2/httpapi", text: "not base64!", encoding: "base64"),
        entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude, started: "yesterday"),
        entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude, status: #""200""#),
        #"{"startedDateTime":"2026-11-20T07:30:00Z","request":{"method":"POST"}}"#,
        entry(
          url: "https://api2.amplitude.com/2/httpapi",
          text: Data([0x1f, 0x8b, 1, 2, 3]).base64EncodedString(),
          encoding: "base64", headers: [("Content-Encoding", "gzip")]),
        entry(url: "https://api2.amplitude.com/2/httpapi", text: #"{"api_key":"k"}"#),
        "42",
        good,
        // mitmproxy's hardump of a binary body (Firebase's protobuf): bytes as lone surrogates.
        #"{"startedDateTime":"2026-11-20T07:30:00Z","request":{"method":"POST","#
          + #""url":"https://app-measurement.com/a","headers":[],"postData":{"text":"\n\udcff\udc80abc"}}}"#,
        // A surrogate pair (an emoji) is text.
        entry(
          url: "https://api2.amplitude.com/2/httpapi",
          text: #"{"api_key":"amp-key","events":[{"event_type":"Play \ud83d\udc80","user_id":"user-42"}]}"#),
      ]))
    XCTAssertEqual(records.map(\.name), ["Play", "Play", "Play \u{1F480}"])
    XCTAssertEqual(summary.entries, 12)
    XCTAssertEqual(
      summary.problems.map { "\($0.entry ?? -1) \($0.field)" },
      [
        "1 request.postData.encoding", "2 request.postData.text", "3 startedDateTime", "4 response.status",
        "5 request.url", "6 request.postData", "7 request.postData", "8 entry", "10 request.postData.text",
      ])
    XCTAssertEqual(summary.problems[5].message, "a gzip body that does not decompress")
    XCTAssertTrue(summary.problems[6].message.contains("amplitude decoder refused it as listen would, 400"))

    let truncated = har([good, good, good]).dropLast(40)
    let cut = try importing(String(truncated))
    XCTAssertEqual(cut.records.count, 2)
    XCTAssertEqual(cut.summary.problems.map { "\($0.entry ?? -1) \($0.field)" }, ["2 entry"])
    XCTAssertTrue(cut.summary.problems[0].message.contains("the entries from here on are not read"))
  }

  /// An entry over the limit is skipped with its size, never built; the next is imported.
  func testEntryOverTheLimitIsSkipped() throws {
    let huge = entry(url: "https://api2.amplitude.com/2/httpapi", text: String(repeating: "x", count: 10_000))
    let (records, summary) = try importing(
      har([huge, entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude)]),
      CaptureImport(hosts: InterceptedHosts(), entryLimit: 4_096))
    XCTAssertEqual(records.count, 1)
    XCTAssertEqual(summary.problems.map { "\($0.entry ?? -1) \($0.field)" }, ["0 entry"])
    XCTAssertTrue(summary.problems[0].message.contains("over the 4096 an entry may take"))
  }

  /// A file that is no HAR file is refused as a whole, naming what is missing.
  func testNoHARFileIsRefused() {
    for text in ["[]", #"{"log":{}}"#, #"{"log":{"entries":{}}}"#, ""] {
      XCTAssertThrowsError(try importing(text), text) { error in
        XCTAssertEqual((error as? HARProblem)?.entry, nil)
      }
    }
  }

  /// The command: the recording written whole (header, then the records), the account on standard
  /// error, exit 1 with a malformed entry named by the file, its index and field, and an existing
  /// output never replaced without --force.
  func testCommandWritesTheRecordingAndReportsEachEntry() throws {
    let binary = packageRoot.appendingPathComponent(".build/debug/tagscope")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw XCTSkip("\(binary.path) not built")
    }
    let directory = try TemporaryDirectory()
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
      let process = Process()
      process.executableURL = binary
      process.arguments = ["import-capture"] + arguments
      return try runToEnd(process)
    }
    let output = directory.file("out.jsonl").path
    let capture = fixtures.appendingPathComponent("capture.har").path
    let imported = try run([capture, "-o", output, "--host", "127.0.0.1"])
    XCTAssertEqual(imported.status, 0, imported.output)
    XCTAssertTrue(imported.output.contains("8 entries, 8 decoded into 21 records"), imported.output)
    XCTAssertEqual(try recordLines(directory.file("out.jsonl")).count, 21)

    let again = try run([capture, "-o", output])
    XCTAssertEqual(again.status, 2, again.output)
    XCTAssertEqual(try recordLines(directory.file("out.jsonl")).count, 21)

    let bad = directory.file("bad.har")
    try Data(
      har([
        entry(url: "https://example.com/a", text: "{}"),
        #"{"startedDateTime":"2026-11-20T07:30:00Z","request":{"method":"POST"}}"#,
        entry(url: "https://api2.amplitude.com/2/httpapi", text: amplitude),
      ]).utf8
    ).write(to: bad)
    let reported = try run([bad.path, "-o", output, "--force"])
    XCTAssertEqual(reported.status, 1, reported.output)
    XCTAssertTrue(reported.output.contains("\(bad.path): entry 1, request.url: missing"), reported.output)
    XCTAssertTrue(
      reported.output.contains("example.com/a: 1× from entry 0, not an SDK host"), reported.output)
    XCTAssertEqual(try recordLines(directory.file("out.jsonl")).map(\.name), ["Play"])

    // validate (and replay) take a .har as it is, imported as above.
    let plan = directory.file("plan.yaml")
    try Data("plan: T\nversion: 1\nevents:\n  Play: {}\n".utf8).write(to: plan)
    let validate = Process()
    validate.executableURL = binary
    validate.arguments = ["validate", "--plan", plan.path, bad.path]
    let validated = try runToEnd(validate)
    XCTAssertEqual(validated.status, 0, validated.output)
    XCTAssertTrue(validated.output.contains("\(bad.path): entry 1, request.url: missing"), validated.output)
    XCTAssertTrue(validated.output.contains("1/1 passed"), validated.output)
  }
}
