import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 7's figures, on loopback only and bounded in time: the native stream from 8 concurrent
/// connections into a recording (against the same bytes piped to a file by `socat`, or by a plain
/// POSIX socket sink when `socat` is missing), and Segment `/v1/batch` with 100 events per batch.
/// Both go through the real pipeline (`LiveSession`: bounded queue, worker writing the recording),
/// beside the same server writing on its event loops (the pipeline before it had a queue).
enum ServerBench {
  static let connections = 8
  static let recordsPerConnection = 40_000
  static let segmentBatches = 1_600
  static let segmentClients = 4

  static func run(_ report: inout BenchReport) throws {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "tagscope-server-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let streams = (0..<connections).map { nativeStream(connection: $0, count: recordsPerConnection) }
    let total = connections * recordsPerConnection
    let totalBytes = streams.reduce(0) { $0 + $1.count }

    let direct = try runNative(streams: streams, total: total, directory: directory, live: false)
    let native = try runNative(streams: streams, total: total, directory: directory, live: true)
    report.add(
      "listen.native.rate", Double(total) / native.seconds, unit: "records/s",
      baseline: "8 connections × \(recordsPerConnection) records → live session → recording file",
      atLeast: 50_000)
    report.add(
      "listen.native.lost", Double(total - native.recorded), unit: "records",
      baseline: "sent − lines in the recording",
      atMost: 0)
    report.add(
      "listen.native.queue.ratio", native.seconds / direct.seconds, unit: "x",
      baseline: "same streams written on the event loops (\(Int(Double(total) / direct.seconds)) records/s)")

    let raw = try runRawSink(streams: streams, totalBytes: totalBytes, directory: directory)
    report.add(
      "listen.native.ratio", native.seconds / raw.seconds, unit: "x",
      baseline:
        "same bytes piped to a file by \(raw.tool) (\(Int(Double(totalBytes) / raw.seconds / 1_000_000)) MB/s)"
    )

    let segmentDirect = try runSegment(directory: directory, live: false)
    let segment = try runSegment(directory: directory, live: true)
    report.add(
      "listen.segment.batch.rate", Double(segment.events) / segment.seconds, unit: "events/s",
      baseline: "\(segmentClients) keep-alive clients, /v1/batch × 100 events, live session", atLeast: 20_000)
    report.add(
      "listen.segment.busy", Double(segment.busy), unit: "replies",
      baseline: "503 + Retry-After: 1 while the queue was full (the client waited and resent)")
    report.add(
      "listen.segment.queue.ratio", segment.seconds / segmentDirect.seconds, unit: "x",
      baseline:
        "same batches written on the event loops (\(Int(Double(segmentDirect.events) / segmentDirect.seconds)) events/s)"
    )
    report.add(
      "listen.segment.batch.lost", Double(segment.events - segment.recorded), unit: "events",
      baseline: "acknowledged − lines in the recording", atMost: 0)
  }

  // MARK: Native

  static func nativeStream(connection: Int, count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * 420)
    RecordLineEncoder.appendLine(
      RecordingHeader(app: "Bench", device: "device-\(connection)", started: Date()), to: &bytes)
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    for index in 1...count {
      let record = Record(
        seq: UInt64(index), time: start.addingTimeInterval(Double(index) / 1000), kind: .userAction,
        name: "playPodcast", properties: ["podcast_title": "Swift by Sundell", "podcast_duration": 1830],
        context: RecordContext(
          screen: "favorites", history: ["podcasts", "favorites"],
          session: RecordSession(id: "s-1", state: "authenticated", user: "u-42")),
        outputs: [
          ProviderOutput(
            provider: "firebase", status: .sent,
            calls: [
              CallDescription(
                method: "logEvent", name: "play_podcast_from_favorites",
                parameters: ["podcast_title": "Swift by Sundell", "podcast_duration": 1830])
            ]),
          ProviderOutput(provider: "piano", status: .dropped),
        ])
      RecordLineEncoder.appendLine(record, to: &bytes)
    }
    return bytes
  }

  /// Streams every connection's bytes at once into a real server writing a real recording.
  static func runNative(streams: [[UInt8]], total: Int, directory: URL, live: Bool) throws -> (
    seconds: Double, recorded: Int
  ) {
    let recording = directory.appendingPathComponent("native-\(live).jsonl")
    let running = try RecordingServer(recording: recording, live: live)
    let server = running.server
    let counter = running.counter
    let seconds = try measureSeconds {
      DispatchQueue.concurrentPerform(iterations: streams.count) { index in
        guard let socket = try? BenchSocket(port: server.port) else { return }
        socket.send(streams[index])
        socket.finishSending()
        socket.waitForClose()
      }
      try counter.wait(for: total, timeout: 120)
    }
    try running.stop()
    return (seconds, try countLines(recording) - 1)
  }

  // MARK: Raw byte sink baseline

  static func runRawSink(streams: [[UInt8]], totalBytes: Int, directory: URL) throws -> (
    seconds: Double, tool: String
  ) {
    let file = directory.appendingPathComponent("raw.bin")
    if let socat = findExecutable("socat") {
      let port = freePort()
      let process = Process()
      process.executableURL = URL(fileURLWithPath: socat)
      process.arguments = [
        "-u", "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,backlog=64", "OPEN:\(file.path),creat,append",
      ]
      try process.run()
      defer {
        process.terminate()
        process.waitUntilExit()
      }
      let start = Date().addingTimeInterval(5)
      while (try? BenchSocket(port: port)) == nil, Date() < start { usleep(10_000) }
      try? FileManager.default.removeItem(at: file)
      let seconds = try measureSeconds {
        try sendAll(streams, port: port)
        try waitForFileSize(file, totalBytes)
      }
      return (seconds, "socat")
    }
    let sink = try POSIXByteSink(file: file, connections: streams.count)
    let seconds = try measureSeconds {
      try sendAll(streams, port: sink.port)
      sink.waitUntilDone()
    }
    guard sink.bytesWritten == totalBytes else {
      throw BenchFailure("raw sink wrote \(sink.bytesWritten) of \(totalBytes) bytes")
    }
    return (seconds, "a POSIX socket sink (socat not found)")
  }

  static func sendAll(_ streams: [[UInt8]], port: Int) throws {
    DispatchQueue.concurrentPerform(iterations: streams.count) { index in
      guard let socket = try? BenchSocket(port: port) else { return }
      socket.send(streams[index])
      socket.finishSending()
      socket.waitForClose()
    }
  }

  static func waitForFileSize(_ file: URL, _ size: Int) throws {
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
      let current = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
      if current >= size { return }
      usleep(1_000)
    }
    throw BenchFailure("the raw sink did not write every byte in time")
  }

  // MARK: Segment /v1/batch

  static func runSegment(directory: URL, live: Bool) throws -> (
    seconds: Double, events: Int, recorded: Int, busy: Int
  ) {
    let recording = directory.appendingPathComponent("segment-\(live).jsonl")
    let running = try RecordingServer(recording: recording, live: live)
    let server = running.server
    let counter = running.counter
    var messages: [String] = []
    for index in 0..<100 {
      messages.append(
        #"{"type":"track","userId":"user-42","event":"Play Podcast","messageId":"m-\#(index)","#
          + #""timestamp":"2026-11-21T10:00:04.210Z","properties":{"podcast_title":"Swift by Sundell","#
          + #""podcast_duration":1830,"position":12.5},"context":{"library":{"name":"analytics-python"}}}"#)
    }
    let body = Array((#"{"writeKey":"bench","batch":["# + messages.joined(separator: ",") + "]}").utf8)
    let head = Array(
      ("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.count)\r\n\r\n").utf8)
    let request = head + body
    let perClient = segmentBatches / segmentClients
    let acknowledged = Counter()
    let busy = Counter()
    let seconds = try measureSeconds {
      DispatchQueue.concurrentPerform(iterations: segmentClients) { _ in
        guard let socket = try? BenchSocket(port: server.port) else { return }
        var sent = 0
        while sent < perClient {
          socket.send(request)
          let status = socket.readResponseStatus()
          if status == 503 {
            // As the SDKs do: wait as long as Retry-After says, then send the same batch again.
            busy.add(1)
            usleep(1_000_000)
            continue
          }
          guard status == 200 else { return }
          acknowledged.add(100)
          sent += 1
        }
      }
      try counter.wait(for: acknowledged.value, timeout: 60)
    }
    try running.stop()
    return (seconds, acknowledged.value, try countLines(recording) - 1, busy.value)
  }

  // MARK: Helpers

  static func stop(_ server: ListenServer) throws {
    let box = ResultBox<Void>()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
      box.set(await Result.capture { try await server.shutdown() })
      semaphore.signal()
    }
    semaphore.wait()
    try box.get()
  }

  static func countLines(_ file: URL) throws -> Int {
    let data = try Data(contentsOf: file)
    return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
  }

  static func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  static func freePort() -> Int {
    let listener = try? POSIXListener()
    return listener?.port ?? 47_531
  }
}

/// A real server writing a real recording: through a ``LiveSession`` (what `tagscope listen`
/// runs; with its delivery ledger unless `ledger` is false), or on its event loops (`live: false`,
/// the baseline); `configuration` may add a proxy.
struct RecordingServer {
  let server: ListenServer
  let counter = Counter()
  private let session: LiveSession?
  private let recorder: Recorder

  init(
    recording: URL, live: Bool, ledger: Bool = true,
    configuration: ListenConfiguration = ListenConfiguration(port: 0)
  ) throws {
    let recorder = try Recorder(url: recording, header: RecordingHeader(app: "bench", started: Date()))
    let counter = self.counter
    let box = ResultBox<ListenServer>()
    let semaphore = DispatchSemaphore(value: 0)
    let session =
      live
      ? LiveSession(store: recorder, delivery: ledger ? DeliveryLedger() : nil) { update in
        for case .records(let records) in update.events { counter.add(records.count) }
      } : nil
    Task {
      box.set(
        await Result.capture {
          if let session {
            return try await ListenServer.start(configuration: configuration, ingest: session)
          }
          return try await ListenServer.start(configuration: configuration) { event in
            guard case .records(let records) = event else { return }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(records.count * 600)
            for record in records { RecordLineEncoder.appendLine(record, to: &bytes) }
            try? recorder.appendLines(bytes)
            counter.add(records.count)
          }
        })
      semaphore.signal()
    }
    semaphore.wait()
    server = try box.get()
    self.session = session
    self.recorder = recorder
  }

  /// Returns once the ledger's worker has matched every record stored (at once without a ledger).
  func waitForLedger() { _ = session?.delivery?.callCount }

  /// The ledger's calls in each state (none without a ledger).
  var deliveryCounts: [DeliveryState: Int] {
    session?.delivery?.snapshot(DeliveryFilter(limit: 0)).counts ?? [:]
  }

  /// Stops the server, then writes out the queue and closes the recording.
  func stop() throws {
    try ServerBench.stop(server)
    if let session { session.close() } else { recorder.close() }
  }
}

struct BenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A thread-safe count that can be waited for.
final class Counter: @unchecked Sendable {
  private let condition = NSCondition()
  private var count = 0

  var value: Int {
    condition.lock()
    defer { condition.unlock() }
    return count
  }

  func add(_ amount: Int) {
    condition.lock()
    count += amount
    condition.broadcast()
    condition.unlock()
  }

  func wait(for target: Int, timeout: TimeInterval) throws {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while count < target {
      if !condition.wait(until: deadline) {
        throw BenchFailure("only \(count) of \(target) records arrived in \(Int(timeout)) s")
      }
    }
  }
}

/// Carries a result out of a task into the synchronous benchmark.
final class ResultBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<Value, any Error>?

  func set(_ result: Result<Value, any Error>) {
    lock.lock()
    self.result = result
    lock.unlock()
  }

  func get() throws -> Value {
    lock.lock()
    defer { lock.unlock() }
    guard let result else { throw BenchFailure("no result") }
    return try result.get()
  }
}

extension Result where Failure == any Error {
  /// The outcome of an async throwing body.
  static func capture(_ body: () async throws -> Success) async -> Result {
    do { return .success(try await body()) } catch { return .failure(error) }
  }
}

/// A blocking loopback TCP client.
final class BenchSocket {
  /// -1 once closed (a failed connect closes it; `deinit` then leaves it alone).
  private(set) var descriptor: Int32

  init(port: Int) throws {
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw BenchFailure("socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(descriptor)
      descriptor = -1
      throw BenchFailure("connect failed")
    }
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        write(descriptor, $0.baseAddress, min($0.count, 1 << 20))
      }
      if written <= 0 { return }
      offset += written
    }
  }

  func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

  func waitForClose() {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while chunk.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// Reads one HTTP response and returns its status (bodies are small: read until the headers end
  /// and the declared length is in).
  func readResponseStatus() -> Int {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return -1 }
      data += chunk[0..<count]
      let text = String(decoding: data, as: UTF8.self)
      guard let headerEnd = text.range(of: "\r\n\r\n") else { continue }
      let head = text[..<headerEnd.lowerBound]
      let length =
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
      if text[headerEnd.upperBound...].utf8.count >= length {
        return Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
      }
    }
  }
}

/// A listening loopback socket on a free port.
final class POSIXListener {
  let descriptor: Int32
  let port: Int

  init() throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var reuse: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw BenchFailure("cannot listen")
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    descriptor = fd
    port = Int(UInt16(bigEndian: actual.sin_port))
  }

  deinit { close(descriptor) }
}

/// The baseline without socat: accepts `connections` clients, one thread each, and appends what
/// they send to one file.
final class POSIXByteSink: @unchecked Sendable {
  private let listener: POSIXListener
  private let file: Int32
  private let lock = NSLock()
  private let group = DispatchGroup()
  private var written = 0

  var port: Int { listener.port }
  var bytesWritten: Int {
    lock.lock()
    defer { lock.unlock() }
    return written
  }

  init(file url: URL, connections: Int) throws {
    listener = try POSIXListener()
    file = open(url.path, O_CREAT | O_TRUNC | O_WRONLY | O_APPEND, 0o644)
    start(connections: connections)
  }

  private func start(connections: Int) {
    for _ in 0..<connections {
      group.enter()
      Thread.detachNewThread { [self] in
        let client = accept(listener.descriptor, nil, nil)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while client >= 0 {
          let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
          if count <= 0 { break }
          lock.lock()
          _ = buffer.withUnsafeBytes { write(file, $0.baseAddress, count) }
          written += count
          lock.unlock()
        }
        if client >= 0 { close(client) }
        group.leave()
      }
    }
  }

  deinit { close(file) }

  func waitUntilDone() { group.wait() }
}
