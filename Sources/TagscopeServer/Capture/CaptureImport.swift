import Foundation
import TagscopeBasics
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

  /// Imports a HAR file's bytes (see ``run(path:emit:)``). Two threads share the work, in the
  /// capture's order: a reader reads, routes and decodes each entry (``CaptureStep``), a chunk
  /// of entries at a time, while the calling thread numbers, places and hands on the records of
  /// the entries before it, as `listen` would have received them one after the other.
  func run(bytes: UnsafeBufferPointer<UInt8>, emit: ([Record]) throws -> Void) throws -> Summary {
    let handoff = CaptureHandoff(capacity: 16)
    let reader = Self.startReading(
      CaptureBytes(buffer: bytes), into: handoff, entryLimit: entryLimit, hosts: hosts, address: address)
    defer {
      handoff.cancel()
      reader.join()
    }
    var delivery = CaptureDelivery(address: address)
    while true {
      switch handoff.take() {
      case .steps(let steps):
        for step in steps { try delivery.take(step, emit: emit) }
      case .end(let outcome):
        if let ended = try outcome.get() { delivery.summary.problems.append(ended) }
        return delivery.summary
      }
    }
  }

  /// The entries of a file's bytes handed on as steps, `chunk` entries at a time.
  private static let chunk = 32

  /// Starts the thread that walks `bytes` into `handoff`.
  private static func startReading(
    _ bytes: CaptureBytes, into handoff: CaptureHandoff, entryLimit: Int, hosts: InterceptedHosts,
    address: String
  ) -> WorkerThread {
    WorkerThread(name: "tagscope.capture.read") { _ in
      var steps: [CaptureStep] = []
      steps.reserveCapacity(chunk)
      let outcome = Result { () throws -> HARProblem? in
        let ended = try HARReader(entryLimit: entryLimit).walk(bytes.buffer) { result in
          steps.append(CaptureStep(result, hosts: hosts, address: address))
          guard steps.count == chunk else { return }
          guard handoff.put(steps) else { throw CancellationError() }
          steps.removeAll(keepingCapacity: true)
        }
        if !steps.isEmpty, !handoff.put(steps) { throw CancellationError() }
        return ended
      }
      handoff.finish(outcome)
    }
  }

}

/// A mapped file's bytes, read by the reading thread while the calling thread, which keeps them
/// mapped, waits for it to end.
private struct CaptureBytes: @unchecked Sendable {
  let buffer: UnsafeBufferPointer<UInt8>
}
