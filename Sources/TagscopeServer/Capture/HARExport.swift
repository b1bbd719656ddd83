import AnalyticsHub
import Foundation
import TagscopeBasics
import TagscopeRecording
import TagscopeVendors

/// `tagscope export --har`: a recording's wire records (those `listen`, the proxy or
/// `import-capture` made of an SDK's requests) as the entries of a HAR 1.2 file, one request per
/// record, that `import-capture`, browsers' devtools and mitmproxy read. A recording keeps the
/// SDK's messages, credential, time and the vendor's answer, not the request: each request is
/// rebuilt at the vendor's own host and event path, and its `comment` says so.
public struct HARExport: Sendable {
  /// What became of one record.
  public enum Outcome: Sendable, Hashable {
    /// The entry's JSON: that of a record, or of the records of one request gathered.
    case entry(String)
    /// Not a wire record (an in-app dispatch): it has no request.
    case inApp
    /// A wire record whose request is not rebuilt, and why (`it kept fields its decoder did not
    /// read…`).
    case notRebuilt(provider: String, reason: String)
    /// A wire record made of the same request as a record before it (the events of one gtag.js
    /// hit, the records of one Braze request), whose entry that one's is.
    case sameRequest
  }

  /// The tool named as the file's `creator`.
  public var creatorVersion: String
  /// The provider and `raw` of the last record given an entry, when `raw` holds its request.
  private var lastRequest: (provider: String, raw: String)?
  /// The request being gathered from the records of one request, written when a record not of it
  /// comes, or at ``finish()``.
  private var gathering: (any HARGathering)?

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

  /// What `record` gives, records given in the recording's order: the entry of a request gathered
  /// from the records before it when `record` is not of that request, then `record`'s own outcome
  /// (none for the first record of a request being gathered: its `.entry` comes later, each record
  /// after it in that request is `.sameRequest`).
  public mutating func outcomes(_ record: Record) -> [Outcome] {
    guard record.isFromSDK, let output = record.outputs.first, let raw = record.raw else {
      return finish() + [.inApp]
    }
    if var gathered = gathering, gathered.continues(with: record, output) {
      defer { gathering = gathered }
      if let refusal = gathered.add(record, output) {
        return [.notRebuilt(provider: output.provider, reason: refusal.reason)]
      }
      return [.sameRequest]
    }
    let done = finish()
    if !raw.isEmpty, let last = lastRequest, last.provider == output.provider, last.raw == raw {
      return done + [.sameRequest]
    }
    lastRequest = nil
    let refused = { (refusal: HARRequestRebuild.NotRebuilt) -> [Outcome] in
      done + [.notRebuilt(provider: output.provider, reason: refusal.reason)]
    }
    let rebuild: Vendor.Rebuild
    switch HARRequestRebuild.rebuild(for: output) {
    case .success(let found): rebuild = found
    case .failure(let refusal): return refused(refusal)
    }
    if case .gatheredUpload = rebuild.body {
      switch HARGatheredUpload.start(record, output, rebuild) {
      case .success(let started): gathering = started
      case .failure(let refusal): return refused(refusal)
      }
      return done
    }
    if case .gatheredBatches = rebuild.body {
      switch HARGatheredBatches.start(record, output, rebuild) {
      case .success(let started): gathering = started
      case .failure(let refusal): return refused(refusal)
      }
      return done
    }
    if HARGatheredRequest.gathers(rebuild) {
      switch HARGatheredRequest.start(record, output, rebuild) {
      case .success(let started): gathering = started
      case .failure(let refusal): return refused(refusal)
      }
      return done
    }
    let request: HARRequestRebuild
    switch HARRequestRebuild.request(for: output, raw: raw, seq: record.seq, rebuild) {
    case .success(let rebuilt): request = rebuilt
    case .failure(let refusal): return refused(refusal)
    }
    lastRequest = raw.isEmpty ? nil : (output.provider, raw)
    return done
      + [.entry(Self.entry(request, time: record.timeMilliseconds, status: output.extra["response_status"]))]
  }

  /// The entry of the request being gathered, if any, or why it is not written; called after the
  /// last record.
  public mutating func finish() -> [Outcome] {
    guard let gathered = gathering else { return [] }
    gathering = nil
    let progress = gathered.progress
    switch gathered.request {
    case .success(let request):
      return [.entry(Self.entry(request, time: progress.time, status: progress.status))]
    case .failure(let refusal): return [.notRebuilt(provider: progress.provider, reason: refusal.reason)]
    }
  }

  private static func entry(_ request: HARRequestRebuild, time: Int64, status: PropertyValue?) -> String {
    let url = URLComponents(string: request.url)
    let host = url?.host ?? ""
    let code = status?.intValue ?? 0
    var headers: [PropertyValue] = [header("Host", host)]
    var sent: Properties = [
      "method": .string(request.method), "url": .string(request.url), "httpVersion": "HTTP/1.1",
      "cookies": .array([]), "headers": .array([]), "queryString": .array([]),
      "headersSize": .int(-1), "bodySize": .int(request.bodyBytes),
    ]
    headers += request.headers.map { header($0.name, $0.value) }
    if request.method != "GET" {
      headers += [
        header("Content-Type", request.mimeType), header("Content-Length", String(request.bodyBytes)),
      ]
      var postData: Properties = [
        "mimeType": .string(request.mimeType), "params": .array([]), "text": .string(request.body),
      ]
      // HAR 1.2 gives a request body no encoding; mitmproxy and import-capture read this one.
      if let encoding = request.bodyEncoding { postData["encoding"] = .string(encoding) }
      sent["postData"] = .object(postData)
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
