import AnalyticsHub
import Foundation
import TagscopeBasics
import TagscopeRecording

/// `tagscope export --har`: a recording's wire records (those `listen`, the proxy or
/// `import-capture` made of an SDK's requests) as the entries of a HAR 1.2 file, one request per
/// record, that `import-capture`, browsers' devtools and mitmproxy read. A recording keeps the
/// SDK's messages, credential, time and the vendor's answer, not the request: each request is
/// rebuilt at the vendor's own host and event path, and its `comment` says so.
public struct HARExport: Sendable {
  /// What became of one record.
  public enum Outcome: Sendable, Hashable {
    /// The entry's JSON.
    case entry(String)
    /// Not a wire record (an in-app dispatch): it has no request.
    case inApp
    /// A wire record of a vendor whose requests are not rebuilt.
    case notRebuilt(provider: String)
    /// A wire record made of the same request as the record before it (the events of one gtag.js
    /// hit), whose entry that one's is.
    case sameRequest
  }

  /// The tool named as the file's `creator`.
  public var creatorVersion: String
  /// The provider and `raw` of the last record given an entry, when `raw` holds its request.
  private var lastRequest: (provider: String, raw: String)?

  /// An export naming tagscope `creatorVersion` as its creator.
  public init(creatorVersion: String) {
    self.creatorVersion = creatorVersion
  }

  /// The vendors whose records are exported.
  public static var providers: [String] { HARRequestRebuild.providers.sorted() }

  /// The file's start, up to its first entry.
  public var head: String {
    #"{"log":{"version":"1.2","creator":{"name":"tagscope","version":"#
      + JSONText.quoted(creatorVersion) + #"},"pages":[],"entries":["#
  }

  /// The file's end, after its last entry.
  public var tail: String { "]}}\n" }

  /// The entry of `record`, or why it has none; records are given in the recording's order.
  public mutating func outcome(_ record: Record) -> Outcome {
    guard record.isFromSDK, let output = record.outputs.first, let raw = record.raw else { return .inApp }
    if !raw.isEmpty, let last = lastRequest, last.provider == output.provider, last.raw == raw {
      return .sameRequest
    }
    guard let request = HARRequestRebuild.request(for: output, raw: raw, seq: record.seq) else {
      lastRequest = nil
      return .notRebuilt(provider: output.provider)
    }
    lastRequest = raw.isEmpty ? nil : (output.provider, raw)
    return .entry(Self.entry(request, time: record.timeMilliseconds, status: output.extra["response_status"]))
  }

  private static func entry(_ request: HARRequestRebuild, time: Int64, status: PropertyValue?) -> String {
    let url = URLComponents(string: request.url)
    let host = url?.host ?? ""
    let code = status?.intValue ?? 0
    var headers: [PropertyValue] = [header("Host", host)]
    var sent: Properties = [
      "method": .string(request.method), "url": .string(request.url), "httpVersion": "HTTP/1.1",
      "cookies": .array([]), "headers": .array([]), "queryString": .array([]),
      "headersSize": .int(-1), "bodySize": .int(request.body.utf8.count),
    ]
    if request.method != "GET" {
      headers += [
        header("Content-Type", request.mimeType), header("Content-Length", String(request.body.utf8.count)),
      ]
      sent["postData"] = .object([
        "mimeType": .string(request.mimeType), "params": .array([]), "text": .string(request.body),
      ])
    }
    sent["headers"] = .array(headers)
    let entry: Properties = [
      "startedDateTime": .string(ISO8601Timestamp.string(milliseconds: time)),
      "time": .int(0),
      "request": .object(sent),
      "response": .object([
        "status": .int(code), "statusText": .string(code == 200 ? "OK" : ""), "httpVersion": "HTTP/1.1",
        "cookies": .array([]), "headers": .array([]),
        "content": .object(["size": .int(0), "mimeType": "application/json", "text": ""]),
        "redirectURL": "", "headersSize": .int(-1), "bodySize": .int(0),
      ]),
      "cache": .object([:]),
      "timings": .object(["send": .int(0), "wait": .int(0), "receive": .int(0)]),
      "comment": .string(request.comment),
    ]
    return JSONText.string(entry)
  }

  private static func header(_ name: String, _ value: String) -> PropertyValue {
    .object(["name": .string(name), "value": .string(value)])
  }
}
