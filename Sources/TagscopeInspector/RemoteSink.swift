import Foundation
import TagscopeRecording

/// Streams recording lines to `tagscope listen` over TCP: the header first on every connection,
/// then each record as it comes, within a few milliseconds.
///
/// `receive` never blocks: lines go to a bounded queue that a background thread sends. When
/// `tagscope listen` is not there yet or goes away, the sink keeps up to `capacity` lines and
/// reconnects with exponential backoff (`initialBackoff` doubling up to `maximumBackoff`); lines
/// beyond the capacity, or lost with a broken connection, are counted and reported to the server
/// as a `DropMarker` (origin `remote`) once connected. Uses the Network framework on Apple
/// platforms and POSIX sockets elsewhere.
///
/// Acknowledgements: every connection announces a `run` (an id of this sink) and asks for
/// acknowledgements (`"ack":true`). `tagscope listen` answers `{"ack":SEQ}` once the records up to
/// SEQ are written to its recording; the sink keeps the records sent but not yet acknowledged (up to
/// `capacity`) and, after reconnecting, sends them again first — `listen` takes each (run, seq)
/// once. So records in flight when `listen` or the network dies are not lost, even across a
/// restart of `listen` on the same recording. A server that never acknowledges (an older
/// `listen`, a plain socket) gets the old behaviour: a broken connection's last batch can be lost,
/// counted as dropped when the send fails.
public final class RemoteSink: RecordSink, @unchecked Sendable {
  /// Where the lines go.
  public let host: String
  /// The port of `tagscope listen`.
  public let port: UInt16
  private let drain: BackgroundDrain<PendingLine>
  private let worker: RemoteWorker

  /// A sink that connects to `host:port` (the default port of `tagscope listen` is 7531). `log`
  /// hears, once per outage, that `listen` cannot be reached and when it is back (standard error by
  /// default; pass your logger).
  public convenience init(
    host: String, port: UInt16 = 7531, header: RecordingHeader = RecordingHeader(started: Date()),
    capacity: Int = 16_384, connectTimeout: TimeInterval = 1, initialBackoff: TimeInterval = 0.1,
    maximumBackoff: TimeInterval = 5, heartbeat: TimeInterval = RemoteSink.defaultHeartbeat,
    log: @escaping @Sendable (String) -> Void = RemoteSink.standardErrorLog
  ) {
    self.init(
      host: host, port: port, header: header, capacity: capacity, connectTimeout: connectTimeout,
      initialBackoff: initialBackoff, maximumBackoff: maximumBackoff, heartbeat: heartbeat, log: log,
      now: { Date() })
  }

  /// The same sink deciding by the time `now` reads (when to retry, whether a server answered the
  /// header in time, when a heartbeat is due): tests pass a clock they move themselves.
  init(
    host: String, port: UInt16 = 7531, header: RecordingHeader = RecordingHeader(started: Date()),
    capacity: Int = 16_384, connectTimeout: TimeInterval = 1, initialBackoff: TimeInterval = 0.1,
    maximumBackoff: TimeInterval = 5, heartbeat: TimeInterval = RemoteSink.defaultHeartbeat,
    log: @escaping @Sendable (String) -> Void = RemoteSink.standardErrorLog,
    now: @escaping @Sendable () -> Date
  ) {
    self.host = host
    self.port = port
    var announced = header
    announced.extra["run"] = .string(UUID().uuidString.lowercased())
    announced.extra["ack"] = true
    let worker = RemoteWorker(
      host: host, port: port, header: announced, capacity: capacity, connectTimeout: connectTimeout,
      initialBackoff: initialBackoff, maximumBackoff: maximumBackoff, heartbeat: heartbeat, log: log, now: now
    )
    self.worker = worker
    drain = BackgroundDrain(
      capacity: capacity, interval: 0.01, wakesWhenIdle: true, idleWake: { worker.idleWake },
      name: "tagscope.remote", handler: { lines, dropped in worker.handle(lines, dropped: dropped) })
  }

  /// Seconds without a record after which the sink sends an empty line, so `tagscope listen`
  /// (which closes native streams idle for 60 s) keeps a quiet app's connection open.
  public static let defaultHeartbeat: TimeInterval = 15

  public func receive(_ items: [SinkItem]) {
    for item in items {
      switch item {
      case .record(let record, let line): drain.push(PendingLine(bytes: line, seq: record.seq))
      case .dropped(let marker, _): worker.countDropped(marker.count)
      }
    }
  }

  /// Queues one record (for use without an ``Inspector``).
  public func send(_ record: Record) { receive([SinkItem(record)]) }

  /// Lines dropped so far: queue full, or lost with a broken connection (drops upstream that
  /// reached this sink as markers included).
  public var droppedCount: Int { drain.droppedCount + worker.droppedCount }

  /// Writes `tagscope: message` to standard error.
  public static let standardErrorLog: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data(("tagscope: " + message + "\n").utf8))
  }

  /// Whether `listen` is connected, being reached for the first time, or out of reach since when.
  public var connectionState: RemoteConnectionState { worker.connectionState }

  /// Whether a connection is currently open.
  public var isConnected: Bool { worker.isConnected }

  /// How many connections were made so far.
  public var connectionCount: Int { worker.connectionCount }

  /// How many times the sink tried to connect, successfully or not (for tests).
  var connectionAttempts: Int { worker.connectionAttempts }

  /// Whether the sink's thread is in its long idle sleep (for tests).
  var isIdle: Bool { drain.isIdle }

  /// Records sent and not yet acknowledged by the server (kept to send again after a reconnect).
  public var unacknowledgedCount: Int { worker.unacknowledgedCount }

  /// Records that left the resend buffer unacknowledged: it overflowed, or ``close()`` gave up
  /// waiting. They probably arrived; nothing confirms it.
  public var unconfirmedCount: Int { worker.unconfirmedCount }

  /// Waits until the queue has been handed to the worker (sent if connected).
  public func flush() { drain.flush() }

  /// Waits until every record received so far is sent and acknowledged (reconnecting as needed),
  /// or `timeout` seconds pass; `true` when nothing is left waiting. Before `close()`, so a data
  /// generator ends only once `listen` has its records.
  public func waitUntilAcknowledged(timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      drain.flush()
      if worker.waitingCount == 0 { return true }
      if Date() >= deadline { return false }
      usleep(10_000)
    }
  }

  /// ``close(acknowledgementTimeout:)`` waiting up to 2 s.
  public func close() { close(acknowledgementTimeout: 2) }

  /// Sends what can be sent, waits up to `acknowledgementTimeout` seconds for the server to
  /// acknowledge it, then closes the connection; lines still unsent (no connection) are counted as
  /// dropped, lines sent but unacknowledged as unconfirmed.
  public func close(acknowledgementTimeout: TimeInterval) {
    drain.close()
    worker.awaitAcknowledgements(timeout: acknowledgementTimeout)
    worker.discardPending()
    worker.disconnect()
  }
}

/// A line waiting to be sent, with its record's sequence number (for drop markers).
struct PendingLine: Sendable {
  var bytes: [UInt8]
  var seq: UInt64?
}
