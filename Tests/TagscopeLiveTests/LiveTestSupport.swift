import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline

/// A recorder whose writes wait while the gate is closed: a disk (or plan check) slower than the
/// clients, on demand.
final class GatedStore: LiveStore, @unchecked Sendable {
  let recorder: Recorder
  private let condition = NSCondition()
  private var open: Bool
  private var crashed = false
  private var batches = 0

  init(url: URL, open: Bool = true) throws {
    recorder = try Recorder(url: url, header: RecordingHeader(app: "test", started: Date()))
    self.open = open
  }

  /// From now on nothing more is written, as if the process had been killed: the batch waiting at
  /// the gate and every later one are lost.
  func crash() {
    condition.lock()
    crashed = true
    open = true
    condition.broadcast()
    condition.unlock()
  }

  func setOpen(_ value: Bool) {
    condition.lock()
    open = value
    condition.broadcast()
    condition.unlock()
  }

  /// Whether writes go through.
  var isOpen: Bool {
    condition.lock()
    defer { condition.unlock() }
    return open
  }

  /// Batches that reached the store (waiting or written).
  var batchCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return batches
  }

  func receive(_ items: [SinkItem]) {
    condition.lock()
    batches += 1
    while !open { condition.wait() }
    let lost = crashed
    condition.unlock()
    if !lost { recorder.receive(items) }
  }

  func flush() { recorder.flush() }
  func close() { recorder.close() }

  private var syncs = 0

  /// Forwards to the recorder and counts the calls.
  func sync() {
    condition.lock()
    syncs += 1
    condition.unlock()
    recorder.sync()
  }

  /// How often the session asked for an `fsync`.
  var syncCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return syncs
  }
  var lastWriteError: SystemError? { recorder.lastError }
}

/// A live session's updates.
typealias UpdateLog = LockedArray<LiveUpdate>

/// A fresh temporary recording path.
func temporaryRecording() -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString).jsonl")
}

/// The records of a recording file, in order (header and drop markers skipped).
func recordedRecords(_ url: URL) throws -> [Record] {
  try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
    if case .record(let record) = try RecordLineDecoder.decode(String(line)) { return record }
    return nil
  }
}

/// `count` screen records numbered from `first`, from `source`.
func screenRecords(_ count: Int, first: UInt64 = 1, source: String? = nil) -> [Record] {
  (0..<count).map { index in
    Record(
      seq: first + UInt64(index), time: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)),
      kind: .screen, name: "screen\(first + UInt64(index))", source: source)
  }
}

/// The package root (for `scripts/`, `README.md` and `.venv/`).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Runs a headless `listen` (`quiet`: no line per connection or problem) recording to `recording`
/// until `body` (given the port and the notices so far) returns; its answer, the server's counters
/// and the notices printed. Waits on conditions only: the port once bound, the run once stopped.
func runListen<Answer: Sendable>(
  recording: URL, quiet: Bool = true, _ body: (Int, LockedArray<String>) async throws -> Answer
) async throws -> (answer: Answer, statistics: ServerStatistics, notices: [String]) {
  let notices = LockedArray<String>()
  let port = LockedArray<Int>()
  let (stopped, stop) = AsyncStream<Void>.makeStream()
  let runner = Task {
    try await ListenRunner.run(
      ListenOptions(port: 0, recordPath: recording.path, headless: true, quiet: quiet), output: { _ in },
      notices: { notices.append($0) }, ready: { port.append($0) },
      stop: { for await _ in stopped { return } })
  }
  guard eventually({ !port.all.isEmpty }) else {
    runner.cancel()
    throw POSIXError(.ETIMEDOUT)
  }
  let answer: Answer
  do { answer = try await body(port.all[0], notices) } catch {
    stop.finish()
    _ = try? await runner.value
    throw error
  }
  stop.finish()
  return (answer, try await runner.value, notices.all)
}
