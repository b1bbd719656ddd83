import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer

/// Issue 31, acknowledgement = durable: ingest throughput when every reply waits for an `fsync` of
/// what it acknowledges (group commit), against replies sent once the lines are written, in the
/// same binary. Each run measures both, one after the other, and the figure is the median of the
/// runs' ratios, so a load that changes during the benchmark moves both sides of a ratio alike.
///
/// Three workloads, each through a real server writing a real recording:
/// - `segment10`: 8 clients, each sending 300 Segment batches of 10 events and waiting for each
///   reply (the smallest batches, where an `fsync` weighs most);
/// - `segment100`: 8 clients, each sending 60 batches of 100 events and waiting for each reply
///   (100 is the batch size of the official server SDKs: `upload_size`/`flush_at` in
///   analytics-python, rudder-sdk-python and posthog-python);
/// - `native`: 8 native streams of 20,000 records asking for acknowledgements (what the hub's
///   inspector sends), streamed without waiting, timed until the last `{"ack":SEQ}` arrives.
enum DurableBench {
  /// One workload: `clients` connections, each sending `requests` replies' worth of work.
  struct Workload {
    var name: String
    var what: String
    var measure: (_ syncs: Bool) throws -> Double
  }

  static func figures(runs: Int, to report: inout BenchReport) throws {
    let workloads = [
      Workload(name: "segment10", what: "8 clients × 300 batches of 10 events, reply awaited") {
        try sdkThroughput(syncs: $0, clients: 8, requests: 300, events: 10)
      },
      Workload(name: "segment100", what: "8 clients × 60 batches of 100 events, reply awaited") {
        try sdkThroughput(syncs: $0, clients: 8, requests: 60, events: 100)
      },
      Workload(name: "native", what: "8 native streams × 20,000 records, acknowledged") {
        try nativeThroughput(syncs: $0, streams: 8, records: 20_000)
      },
    ]
    for workload in workloads {
      var pairs: [(durable: Double, cached: Double)] = []
      for _ in 0..<max(1, runs) {
        pairs.append((try workload.measure(true), try workload.measure(false)))
      }
      let name = "durable.\(workload.name)"
      report.add(
        "\(name).fsync.eventsPerSecond", median(pairs.map(\.durable)), unit: "events/s",
        baseline: workload.what + "; replies after fsync")
      report.add(
        "\(name).nofsync.eventsPerSecond", median(pairs.map(\.cached)), unit: "events/s",
        baseline: "the same; replies after write only")
      report.add(
        "\(name).throughput.ratio", median(pairs.map { $0.durable / $0.cached }), unit: "×",
        baseline: "fsync before reply / write only, median of \(pairs.count) paired runs", atLeast: 0.8)
    }
  }

  static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

  /// Events per second recorded while `clients` connections each send `requests` Segment batches
  /// of `events` events, waiting for each reply.
  static func sdkThroughput(syncs: Bool, clients: Int, requests: Int, events: Int) throws -> Double {
    try withServer(syncs: syncs) { server in
      let request = batchRequest(events: events)
      let finished = Counter()
      let failures = Counter()
      let seconds = try measureSeconds {
        for _ in 0..<clients {
          Thread {
            if let socket = try? BenchSocket(port: server.port) {
              for _ in 0..<requests {
                socket.send(request)
                guard socket.readResponseStatus() == 200 else {
                  failures.add(1)
                  break
                }
              }
            } else {
              failures.add(1)
            }
            finished.add(1)
          }.start()
        }
        try finished.wait(for: clients, timeout: 600)
      }
      guard failures.value == 0 else { throw BenchFailure("\(failures.value) clients were refused") }
      return Double(clients * requests * events) / seconds
    }
  }

  /// Records per second of `streams` native connections each streaming `records` records with
  /// acknowledgements asked for, until each connection's last record is acknowledged.
  static func nativeThroughput(syncs: Bool, streams: Int, records: Int) throws -> Double {
    let bytes = (0..<streams).map { nativeStream(connection: $0, count: records) }
    return try withServer(syncs: syncs) { server in
      let failures = Counter()
      let seconds = measureSeconds {
        DispatchQueue.concurrentPerform(iterations: streams) { index in
          guard let socket = try? BenchSocket(port: server.port) else { return failures.add(1) }
          socket.send(bytes[index])
          if !socket.waitForAcknowledgement(of: UInt64(records)) { failures.add(1) }
        }
      }
      guard failures.value == 0 else { throw BenchFailure("\(failures.value) streams were not acknowledged") }
      return Double(streams * records) / seconds
    }
  }

  /// A native stream whose header asks for acknowledgements.
  static func nativeStream(connection: Int, count: Int) -> [UInt8] {
    var header = RecordingHeader(app: "Bench", device: "durable-\(connection)", started: Date())
    header.extra["ack"] = true
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(header, to: &bytes)
    let plain = ServerBench.nativeStream(connection: connection, count: count)
    // The same records as the native stream bench, after its header line.
    if let newline = plain.firstIndex(of: UInt8(ascii: "\n")) { bytes += plain[(newline + 1)...] }
    return bytes
  }

  /// A Segment `/v1/batch` request of `events` track events.
  static func batchRequest(events: Int) -> [UInt8] {
    let messages = (0..<events).map { index in
      #"{"type":"track","userId":"u","event":"Play","messageId":"d-\#(index)","properties":{"position":\#(index)}}"#
    }
    return HostileBench.request(
      path: "/v1/batch", body: #"{"writeKey":"k","batch":["# + messages.joined(separator: ",") + "]}")
  }

  /// Runs `body` against a live session recording into a temporary file, syncing before replies
  /// or not, and stops it afterwards.
  static func withServer(syncs: Bool, _ body: (ListenServer) throws -> Double) throws -> Double {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-durable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recorder = try Recorder(
      url: directory.appendingPathComponent("d.jsonl"), header: RecordingHeader(app: "bench", started: Date())
    )
    let session = LiveSession(store: recorder, syncsBeforeAcknowledging: syncs)
    let box = ResultBox<ListenServer>()
    let started = DispatchSemaphore(value: 0)
    Task {
      box.set(
        await Result.capture {
          try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
        })
      started.signal()
    }
    started.wait()
    let server = try box.get()
    defer {
      try? ServerBench.stop(server)
      session.close()
      recorder.close()
    }
    return try body(server)
  }
}

extension BenchSocket {
  /// Reads `{"ack":SEQ}` lines until one reaches `seq` (false if the connection ends first).
  func waitForAcknowledgement(of seq: UInt64) -> Bool {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return false }
      pending += chunk[0..<count]
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        if let range = line.range(of: #""ack":"#),
          let value = UInt64(line[range.upperBound...].prefix { $0.isNumber }), value >= seq
        {
          return true
        }
      }
    }
  }
}
