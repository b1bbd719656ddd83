import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// Issue 16: the query API's `wait` latency, from a record's arrival (enqueued into the live
/// session, as the server does once it has parsed it) to the HTTP answer, and `records` with a
/// filter over 1,000,000 records.
enum QueryAPIBench {
  static func run(_ report: inout BenchReport) throws {
    let total = Int(ProcessInfo.processInfo.environment["TAGSCOPE_API_BENCH_RECORDS"] ?? "") ?? 1_000_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let timeline = try Timeline.live(
      recordingTo: directory.appendingPathComponent("api.jsonl"), header: RecordingHeader(app: "bench"))
    defer { timeline.release() }
    let session = LiveSession(store: timeline, checker: nil)
    defer { session.close() }
    let query = QueryService(session: session, timeline: timeline)
    let server = try Self.blocking {
      try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session, query: query)
    }
    defer { _ = try? Self.blocking { try await server.shutdown() } }

    // wait: one waiter at a time for a record that arrives after it is registered.
    var latencies: [Double] = []
    for number in 0..<300 {
      let socket = try BenchSocket(port: server.port)
      socket.send(Self.get("wait?filter=name:ping-\(number)&count=1&timeout=10"))
      usleep(2_000)  // the wait is registered
      let sent = DispatchTime.now().uptimeNanoseconds
      session.deliver(.records([Self.record(number + 1, name: "ping-\(number)", kind: .event)]))
      let status = socket.readResponseStatus()
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e6
      guard status == 200 else { throw BenchFailure("wait answered \(status)") }
      latencies.append(elapsed)
    }
    latencies.sort()
    report.add(
      "api.wait.p50", latencies[latencies.count / 2], unit: "ms",
      baseline: "record enqueued into the live session → wait's HTTP answer read, 300 waits", atMost: 5)
    report.add(
      "api.wait.p99", latencies[latencies.count * 99 / 100], unit: "ms",
      baseline: "same 300 waits", atMost: 20)

    // records over `total` records: a rare name (the whole index is scanned) and a common kind.
    var batch: [Record] = []
    for number in 0..<total {
      let rare = number % 100_000 == 99_999
      batch.append(
        Self.record(
          number + 1_000, name: rare ? "checkout" : "screen\(number % 50)", kind: rare ? .userAction : .screen
        ))
      if batch.count == 4_096 {
        session.deliver(.records(batch))
        batch.removeAll(keepingCapacity: true)
      }
    }
    session.deliver(.records(batch))
    session.flush()
    while timeline.count < total + 300 { usleep(10_000) }
    for (name, filter, limit) in [
      ("api.records.rare_ms", "name:checkout", 100), ("api.records.common_ms", "kind:screen", 100),
    ] {
      var times: [Double] = []
      for _ in 0..<5 {
        let socket = try BenchSocket(port: server.port)
        let start = DispatchTime.now().uptimeNanoseconds
        socket.send(Self.get("records?filter=\(filter)&limit=\(limit)"))
        guard socket.readResponseStatus() == 200 else { throw BenchFailure("records failed") }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      }
      times.sort()
      report.add(
        name, times[2], unit: "ms",
        baseline: "GET records?filter=\(filter)&limit=\(limit) over \(total) records, median of 5",
        atMost: 200)
    }
  }

  /// Runs an async body to its end from the synchronous benchmark.
  static func blocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws
    -> Value
  {
    let box = ResultBox<Value>()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
      box.set(await Result.capture { try await body() })
      semaphore.signal()
    }
    semaphore.wait()
    return try box.get()
  }

  private static func get(_ pathAndQuery: String) -> [UInt8] {
    Array("GET /tagscope/v1/\(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  }

  private static func record(_ seq: Int, name: String, kind: RecordKind) -> Record {
    var record = Record(seq: UInt64(seq), time: Date(), kind: kind, name: name)
    record.source = "bench@phone"
    return record
  }
}
