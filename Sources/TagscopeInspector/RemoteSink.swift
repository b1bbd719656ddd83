import Foundation
import TagscopeRecording

/// Streams recording lines to `tagscope listen` over TCP: the header first on every connection,
/// then each record as it comes, within a few milliseconds.
///
/// `receive` never blocks: lines go to a bounded queue that a background thread sends. When
/// `tagscope listen` is not there yet or goes away, the sink keeps up to `capacity` lines and
/// reconnects with exponential backoff (`initialBackoff` doubling up to `maximumBackoff`); lines
/// beyond the capacity, or lost with a broken connection, are counted and reported to the server
/// as a ``DropMarker`` (origin `remote`) once connected. Uses the Network framework on Apple
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

  /// A sink that connects to `host:port` (the default port of `tagscope listen` is 7531).
  public init(
    host: String, port: UInt16 = 7531, header: RecordingHeader = RecordingHeader(started: Date()),
    capacity: Int = 16_384, connectTimeout: TimeInterval = 1, initialBackoff: TimeInterval = 0.1,
    maximumBackoff: TimeInterval = 5, heartbeat: TimeInterval = RemoteSink.defaultHeartbeat
  ) {
    self.host = host
    self.port = port
    var announced = header
    announced.extra["run"] = .string(UUID().uuidString.lowercased())
    announced.extra["ack"] = true
    let worker = RemoteWorker(
      host: host, port: port, header: announced, capacity: capacity, connectTimeout: connectTimeout,
      initialBackoff: initialBackoff, maximumBackoff: maximumBackoff, heartbeat: heartbeat)
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

  /// Whether a connection is currently open.
  public var isConnected: Bool { worker.isConnected }

  /// How many connections were made so far.
  public var connectionCount: Int { worker.connectionCount }

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

/// The connection state, touched by the sink's thread (and read by accessors under the lock).
private final class RemoteWorker: @unchecked Sendable {
  private let host: String
  private let port: UInt16
  private let headerLine: [UInt8]
  private let capacity: Int
  private let connectTimeout: TimeInterval
  private let initialBackoff: TimeInterval
  private let maximumBackoff: TimeInterval
  private let lock = NSLock()
  private var transport: (any LineTransport)?
  private var pending: [PendingLine] = []
  /// Sent, waiting for the server's acknowledgement, in `seq` order.
  private var unacknowledged = AcknowledgementBuffer()
  /// Whether the current connection's server acknowledges (it answered the header).
  private var serverAcknowledges = false
  private var connectedAt = Date.distantPast
  private var unreportedDrops = 0
  private var totalDrops = 0
  private var unconfirmed = 0
  private var lastSentSeq: UInt64?
  private var backoff: TimeInterval
  private var nextAttempt = Date.distantPast
  private var connections = 0
  private let heartbeat: TimeInterval
  private var lastSend = Date()
  /// Pending plus unacknowledged, as of the end of the last batch (read from other threads).
  private var waiting = 0

  init(
    host: String, port: UInt16, header: RecordingHeader, capacity: Int, connectTimeout: TimeInterval,
    initialBackoff: TimeInterval, maximumBackoff: TimeInterval, heartbeat: TimeInterval
  ) {
    self.heartbeat = heartbeat
    self.host = host
    self.port = port
    var line: [UInt8] = []
    RecordLineEncoder.appendLine(header, to: &line)
    headerLine = line
    self.capacity = capacity
    self.connectTimeout = connectTimeout
    self.initialBackoff = initialBackoff
    self.maximumBackoff = maximumBackoff
    backoff = initialBackoff
  }

  var droppedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return totalDrops
  }

  var unacknowledgedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return unacknowledged.count
  }

  var waitingCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return waiting
  }

  var unconfirmedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return unconfirmed
  }

  var isConnected: Bool {
    lock.lock()
    defer { lock.unlock() }
    return transport != nil
  }

  var connectionCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return connections
  }

  /// How long the sink's thread may sleep while no record comes (asked on that thread): until the
  /// next connection attempt while lines wait for one, else half the heartbeat.
  var idleWake: TimeInterval {
    guard transport == nil, !pending.isEmpty || !unacknowledged.isEmpty || hasUnreportedDrops else {
      return heartbeat / 2
    }
    return min(heartbeat / 2, max(0.005, nextAttempt.timeIntervalSinceNow))
  }

  private var hasUnreportedDrops: Bool {
    lock.lock()
    defer { lock.unlock() }
    return unreportedDrops > 0
  }

  /// Drops reported upstream (an inspector's full backlog), to pass on to the server.
  func countDropped(_ count: Int) {
    lock.lock()
    unreportedDrops += count
    lock.unlock()
  }

  private func drop(_ count: Int, counted: Bool) {
    lock.lock()
    unreportedDrops += count
    if counted { totalDrops += count }
    lock.unlock()
  }

  /// Runs on the sink's thread: keeps lines, connects when due, sends, reads acknowledgements.
  func handle(_ lines: [PendingLine], dropped: Int) {
    defer {
      lock.lock()
      waiting = pending.count + unacknowledged.count
      lock.unlock()
    }
    if dropped > 0 { drop(dropped, counted: false) }
    let room = max(0, capacity - pending.count)
    pending.append(contentsOf: lines.prefix(room))
    if lines.count > room { drop(lines.count - room, counted: true) }
    if let current = transport, current.peerClosed { connectionBroke() }
    if transport == nil {
      guard Date() >= nextAttempt else { return }
      connect()
      guard transport != nil else { return }
    }
    readAcknowledgements()
    sendPending()
  }

  private func connect() {
    do {
      let made: any LineTransport
      #if canImport(Network)
        made = try NetworkTransport(host: host, port: port, timeout: connectTimeout)
      #else
        made = try SocketTransport(host: host, port: port, timeout: connectTimeout)
      #endif
      // What the previous connection sent without an acknowledgement goes first, again.
      try made.send(headerLine + unacknowledged.bytes)
      lastSend = Date()
      lock.lock()
      transport = made
      connections += 1
      lock.unlock()
      serverAcknowledges = false
      connectedAt = Date()
      backoff = initialBackoff
    } catch {
      nextAttempt = Date().addingTimeInterval(backoff)
      backoff = min(backoff * 2, maximumBackoff)
    }
  }

  /// Reads the server's `{"ack":SEQ}` lines and forgets the records they cover.
  private func readAcknowledgements() {
    guard let transport else { return }
    let bytes = transport.receiveAvailable()
    guard !bytes.isEmpty else { return }
    lock.lock()
    if unacknowledged.read(bytes) { serverAcknowledges = true }
    lock.unlock()
  }

  private func sendPending() {
    guard let transport else { return }
    lock.lock()
    let drops = unreportedDrops
    unreportedDrops = 0
    lock.unlock()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(pending.reduce(0) { $0 + $1.bytes.count } + 128)
    for line in pending { bytes.append(contentsOf: line.bytes) }
    let lastSeq = pending.last(where: { $0.seq != nil })?.seq ?? lastSentSeq
    if drops > 0 {
      RecordLineEncoder.appendLine(
        DropMarker(count: drops, time: Date(), afterSeq: lastSeq, origin: "remote"), to: &bytes)
    }
    if bytes.isEmpty {
      // Nothing to send for a while: an empty line (skipped by `listen`) keeps the stream alive.
      guard Date().timeIntervalSince(lastSend) >= heartbeat else { return }
      bytes = [UInt8(ascii: "\n")]
    }
    do {
      try transport.send(bytes)
      lastSend = Date()
      lastSentSeq = lastSeq
      keepUntilAcknowledged(pending)
      pending.removeAll(keepingCapacity: true)
    } catch {
      // Kept for the next connection when this server acknowledges; else lost, and counted.
      if serverAcknowledges {
        keepUntilAcknowledged(pending)
      } else {
        drop(pending.count, counted: true)
      }
      drop(drops, counted: false)
      pending.removeAll(keepingCapacity: true)
      connectionBroke()
      nextAttempt = Date().addingTimeInterval(backoff)
    }
  }

  /// Keeps sent records until acknowledged, within `capacity` (the oldest leave unconfirmed). A
  /// server that has not answered the header within ``acknowledgementGrace`` does not acknowledge:
  /// nothing is kept for it.
  private func keepUntilAcknowledged(_ lines: [PendingLine]) {
    lock.lock()
    defer { lock.unlock() }
    guard serverAcknowledges || Date().timeIntervalSince(connectedAt) < Self.acknowledgementGrace else {
      unacknowledged.removeOldest(unacknowledged.count)
      return
    }
    for line in lines where line.seq != nil { unacknowledged.append(line) }
    let over = unacknowledged.count - capacity
    if over > 0 {
      unacknowledged.removeOldest(over)
      unconfirmed += over
    }
  }

  /// The connection is gone: what it sent unacknowledged waits for the next one, unless its server
  /// never acknowledged (then nothing would take duplicates out, and nothing is sent again).
  private func connectionBroke() {
    if !serverAcknowledges {
      lock.lock()
      unacknowledged.removeOldest(unacknowledged.count)
      lock.unlock()
    }
    disconnect()
  }

  /// On the closing thread, once the sink's thread has stopped: reads acknowledgements until every
  /// sent record is covered or `timeout` passes; what is left counts as unconfirmed.
  /// How long a new connection's server has to answer the header before it counts as one that
  /// does not acknowledge.
  static let acknowledgementGrace: TimeInterval = 1

  func awaitAcknowledgements(timeout: TimeInterval) {
    let start = Date()
    while let current = transport, !unacknowledged.isEmpty {
      readAcknowledgements()
      if unacknowledged.isEmpty || current.peerClosed { break }
      let waited = Date().timeIntervalSince(start)
      if waited >= timeout || (!serverAcknowledges && waited >= 0.2) { break }
      usleep(2_000)
    }
    lock.lock()
    if serverAcknowledges { unconfirmed += unacknowledged.count }
    unacknowledged.removeOldest(unacknowledged.count)
    lock.unlock()
  }

  /// Counts lines that will never be sent.
  func discardPending() {
    drop(pending.count, counted: true)
    pending.removeAll()
  }

  func disconnect() {
    lock.lock()
    let current = transport
    transport = nil
    lock.unlock()
    current?.close()
  }
}
