import Foundation
import NIOConcurrencyHelpers
import TagscopeRecording

/// `tagscope import-capture`: every request of a HAR 1.2 capture through the SDK decoders of
/// `listen` and the proxy (router, decompression, ``RequestIntake``'s checks, device placement and
/// provider rules of ``ServerContext``), into records. A record's time is the SDK's own, or else
/// the capture's `startedDateTime`; its output keeps the vendor's answer (`response_status`). What
/// no decoder reads is counted and listed; a malformed entry is reported with its index and field,
/// and the import goes on.
public struct CaptureImport: Sendable {
  /// The hosts decoded: the SDKs' own, plus self-hosted collectors (or loopback, for a capture of
  /// SDKs pointed at a local server).
  public var hosts: InterceptedHosts
  /// The address records of payloads naming no device are placed under (a capture names no client).
  public var address: String
  /// The most bytes of JSON one entry may take (larger ones are reported and skipped).
  public var entryLimit: Int

  /// An import decoding `hosts`, placing devices by `address`, with entries up to `entryLimit`
  /// bytes.
  public init(hosts: InterceptedHosts, address: String = "capture", entryLimit: Int = 128 * 1024 * 1024) {
    self.hosts = hosts
    self.address = address
    self.entryLimit = entryLimit
  }

  /// Requests not decoded, grouped by host, path and reason.
  public struct Unread: Sendable, Hashable {
    /// The request's host.
    public var host: String
    /// The request's path, without its query.
    public var path: String
    /// Why no decoder read it.
    public var reason: String
    /// The first entry's index.
    public var firstEntry: Int
    /// How many entries.
    public var count: Int
  }

  /// What an import did.
  public struct Summary: Sendable {
    /// Entries in the capture (read or not).
    public var entries = 0
    /// Entries an SDK decoder took.
    public var decoded = 0
    /// Records made.
    public var records = 0
    /// Requests no decoder read, in the order first seen.
    public var unread: [Unread] = []
    /// Malformed entries and requests a decoder refused, in order.
    public var problems: [HARProblem] = []
  }

  /// Imports the HAR file at `path`, handing the records to `emit` as each entry gives them,
  /// numbered from 1. Throws for a file that cannot be read or is no HAR file.
  public func run(path: String, emit: ([Record]) throws -> Void) throws -> Summary {
    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    return try data.withUnsafeBytes { raw in
      try run(bytes: raw.bindMemory(to: UInt8.self), emit: emit)
    }
  }

  /// Imports a HAR file's bytes (see ``run(path:emit:)``).
  func run(bytes: UnsafeBufferPointer<UInt8>, emit: ([Record]) throws -> Void) throws -> Summary {
    let collected = NIOLockedValueBox<[ListenEvent]>([])
    let server = ServerContext(
      configuration: ListenConfiguration(),
      ingest: ImmediateIngest { event in collected.withLockedValue { $0.append(event) } })
    var summary = Summary()
    var unread: [String: Int] = [:]
    let ended = try HARReader(entryLimit: entryLimit).walk(bytes) { result in
      summary.entries += 1
      let entry: HAREntry
      switch result {
      case .failure(let problem):
        summary.problems.append(problem)
        return
      case .success(let read): entry = read
      }
      switch CaptureRequest.route(entry, hosts: hosts, address: address) {
      case .unread(let host, let path, let reason):
        let key = "\(host)\u{0}\(path)\u{0}\(reason)"
        if let place = unread[key] {
          summary.unread[place].count += 1
        } else {
          unread[key] = summary.unread.count
          summary.unread.append(
            Unread(host: host, path: path, reason: reason, firstEntry: entry.index, count: 1))
        }
      case .refused(let reason):
        summary.problems.append(HARProblem(entry: entry.index, field: "request.postData", message: reason))
      case .endpoint(let endpoint, let request):
        let reply = RequestIntake.answer(request, endpoint: endpoint, tokenCheck: nil)
        if reply.rejection != nil {
          summary.problems.append(Self.refusal(reply, entry: entry, endpoint: endpoint))
          return
        }
        summary.decoded += 1
        if let status = entry.responseStatus, status >= 400 {
          summary.problems.append(
            HARProblem(
              entry: entry.index, field: "response.status",
              message:
                "the vendor answered \(status) to \(entry.method) \(request.path) (its records are kept)"))
        }
        var events = reply.events + (reply.batch.map { $0.events(0..<$0.count) } ?? [])
        for index in events.indices {
          events[index].time = events[index].time ?? entry.started
          if let status = entry.responseStatus { events[index].annotations["response_status"] = .int(status) }
        }
        server.deliver(events, address: address)
      }
      for event in collected.withLockedValue({ events in
        defer { events = [] }
        return events
      }) {
        if case .records(let records) = event {
          summary.records += records.count
          try emit(records)
        }
      }
    }
    if let ended { summary.problems.append(ended) }
    return summary
  }

  private static func refusal(_ reply: SDKReply, entry: HAREntry, endpoint: any SDKEndpoint) -> HARProblem {
    HARProblem(
      entry: entry.index, field: "request.postData",
      message:
        "the \(endpoint.provider) decoder refused it as listen would, \(reply.status.code): \(reply.body.prefix(200))"
    )
  }
}
