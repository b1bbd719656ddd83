import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// A HAR round trip for rebuild tests: requests sent to a local listen written as a HAR,
/// imported, exported and imported again.
struct HARRebuildRoundTrip {
  /// The hosts the imports decode besides the SDKs' own: loopback (the tests' requests).
  let importer = CaptureImport(
    hosts: InterceptedHosts(extra: ["127.0.0.1"]), address: "127.0.0.1")

  /// The HAR of `requests` (method, path with query, body) as sent to a local listen, each with
  /// `headers`.
  func har(
    _ requests: [(method: String, path: String, body: String, mimeType: String)],
    headers: [(name: String, value: String)] = []
  ) -> String {
    let sent = headers.map { #"{"name":\#(JSONText.quoted($0.name)),"value":\#(JSONText.quoted($0.value))}"# }
      .joined(separator: ",")
    let entries = requests.enumerated().map { index, request -> String in
      let postData =
        request.method == "GET"
        ? ""
        : #","postData":{"mimeType":\#(JSONText.quoted(request.mimeType)),"text":\#(JSONText.quoted(request.body))}"#
      return
        #"{"startedDateTime":"2026-11-25T10:00:0\#(index).000Z","request":{"method":"\#(request.method)","#
        + #""url":\#(JSONText.quoted("http://127.0.0.1:8080" + request.path)),"httpVersion":"HTTP/1.1","#
        + #""headers":[\#(sent)],"queryString":[]\#(postData)},"response":{"status":200,"headers":[],"#
        + #""content":{"size":0}},"timings":{}}"#
    }
    return #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":["#
      + entries.joined(separator: ",") + "]}}"
  }

  /// The records `import-capture` makes of `har`, and its summary.
  func imported(_ har: String) throws -> (records: [Record], summary: CaptureImport.Summary) {
    var records: [Record] = []
    var bytes = Array(har.utf8)
    let summary = try bytes.withUnsafeMutableBufferPointer { buffer in
      try importer.run(bytes: UnsafeBufferPointer(buffer)) { records += $0 }
    }
    return (records, summary)
  }

  /// The HAR export of `records`, its entries' requests (as JSON objects) and the outcomes of
  /// records with no entry.
  func exported(_ records: [Record]) throws -> (
    har: String, requests: [[String: Any]], skipped: [HARExport.Outcome]
  ) {
    var export = HARExport(creatorVersion: "test")
    var entries: [String] = []
    var skipped: [HARExport.Outcome] = []
    for outcome in records.flatMap({ export.outcomes($0) }) + export.finish() {
      switch outcome {
      case .entry(let json): entries.append(json)
      case let other: skipped.append(other)
      }
    }
    let requests = try entries.map { json -> [String: Any] in
      let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      return try XCTUnwrap(entry["request"] as? [String: Any])
    }
    return (export.head + entries.joined(separator: ",") + export.tail, requests, skipped)
  }

  /// Each record not rebuilt of `skipped`, as `provider: reason`.
  static func notRebuilt(_ skipped: [HARExport.Outcome]) -> [String] {
    skipped.compactMap { outcome in
      guard case .notRebuilt(let provider, let reason) = outcome else { return nil }
      return provider + ": " + reason
    }
  }
}
