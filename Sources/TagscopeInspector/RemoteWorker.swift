import Foundation
import TagscopeRecording

/// The connection state, touched by the sink's thread (and read by accessors under the lock).
final class RemoteWorker: @unchecked Sendable {
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
  private var attempts = 0
  private let heartbeat: TimeInterval
  private var lastSend: Date
  /// The time the worker decides by (the wall clock, or a test's).
  private let now: @Sendable () -> Date
  /// Pending plus unacknowledged, as of the end of the last batch (read from other threads).
  private var waiting = 0
  private var state = RemoteConnectionState.connecting
  private let log: @Sendable (String) -> Void

  init(
    host: String, port: UInt16, header: RecordingHeader, capacity: Int, connectTimeout: TimeInterval,
    initialBackoff: TimeInterval, maximumBackoff: TimeInterval, heartbeat: TimeInterval,
    log: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Date
  ) {
    self.log = log
    self.now = now
    lastSend = now()
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

  var droppedCount: Int { lock.withLock { totalDrops } }

  var unacknowledgedCount: Int { lock.withLock { unacknowledged.count } }

  var connectionState: RemoteConnectionState { lock.withLock { state } }

  /// Becomes `new`; says so in the log when an outage starts or ends (once each, not per attempt).
  /// An outage keeps the time it started however many attempts fail.
  private func become(_ new: RemoteConnectionState) {
    lock.lock()
    let old = state
    if case .waiting = old, case .waiting = new {
      lock.unlock()
      return
    }
    state = new
    let waitingLines = pending.count + unacknowledged.count
    lock.unlock()
    switch (old, new) {
    case (.connecting, .waiting(_, let reason)):
      log("cannot reach tagscope listen at \(host):\(port) (\(reason)); keeping records and retrying")
    case (.connected, .waiting(_, let reason)):
      log("lost tagscope listen at \(host):\(port) (\(reason)); keeping records and reconnecting")
    case (.waiting(let since, _), .connected):
      let seconds = Int(now().timeIntervalSince(since).rounded())
      log(
        "connected to tagscope listen at \(host):\(port) after \(seconds) s; sending \(waitingLines) waiting records"
      )
    default: break
    }
  }

  var waitingCount: Int { lock.withLock { waiting } }

  var unconfirmedCount: Int { lock.withLock { unconfirmed } }

  var isConnected: Bool { lock.withLock { transport != nil } }

  var connectionCount: Int { lock.withLock { connections } }

  var connectionAttempts: Int { lock.withLock { attempts } }

  /// How long the sink's thread may sleep while no record comes (asked on that thread): until the
  /// next connection attempt while lines wait for one, else half the heartbeat.
  var idleWake: TimeInterval {
    guard transport == nil, !pending.isEmpty || !unacknowledged.isEmpty || hasUnreportedDrops else {
      return heartbeat / 2
    }
    return min(heartbeat / 2, max(0.005, nextAttempt.timeIntervalSince(now())))
  }

  private var hasUnreportedDrops: Bool { lock.withLock { unreportedDrops > 0 } }

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
      guard now() >= nextAttempt else { return }
      connect()
      guard transport != nil else { return }
    }
    readAcknowledgements()
    sendPending()
  }

  private func connect() {
    lock.withLock { attempts += 1 }
    do {
      let made: any LineTransport
      #if canImport(Network)
        made = try NetworkTransport(host: host, port: port, timeout: connectTimeout)
      #else
        made = try SocketTransport(host: host, port: port, timeout: connectTimeout)
      #endif
      // What the previous connection sent without an acknowledgement goes first, again.
      try made.send(headerLine + unacknowledged.bytes)
      lastSend = now()
      lock.lock()
      transport = made
      connections += 1
      lock.unlock()
      become(.connected)
      serverAcknowledges = false
      connectedAt = now()
      backoff = initialBackoff
    } catch {
      // The peer is named by the message: the reason alone, in words (`connection refused`).
      become(.waiting(since: now(), reason: error.reason))
      nextAttempt = now().addingTimeInterval(backoff)
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
        DropMarker(count: drops, time: now(), afterSeq: lastSeq, origin: "remote"), to: &bytes)
    }
    if bytes.isEmpty {
      // Nothing to send for a while: an empty line (skipped by `listen`) keeps the stream alive.
      guard now().timeIntervalSince(lastSend) >= heartbeat else { return }
      bytes = [UInt8(ascii: "\n")]
    }
    do {
      try transport.send(bytes)
      lastSend = now()
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
      nextAttempt = now().addingTimeInterval(backoff)
    }
  }

  /// Keeps sent records until acknowledged, within `capacity` (the oldest leave unconfirmed). A
  /// server that has not answered the header within ``acknowledgementGrace`` does not acknowledge:
  /// nothing is kept for it.
  private func keepUntilAcknowledged(_ lines: [PendingLine]) {
    lock.lock()
    defer { lock.unlock() }
    guard serverAcknowledges || now().timeIntervalSince(connectedAt) < Self.acknowledgementGrace else {
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
    become(.waiting(since: now(), reason: "the connection closed"))
    if !serverAcknowledges {
      lock.lock()
      unacknowledged.removeOldest(unacknowledged.count)
      lock.unlock()
    }
    disconnect()
  }

  /// How long a new connection's server has to answer the header before it counts as one that
  /// does not acknowledge.
  static let acknowledgementGrace: TimeInterval = 1
  /// How long closing waits for a server that has not acknowledged anything yet.
  static let closingGrace: TimeInterval = 0.2

  /// On the closing thread, once the sink's thread has stopped: reads acknowledgements until every
  /// sent record is covered or `timeout` passes; what is left counts as unconfirmed.
  func awaitAcknowledgements(timeout: TimeInterval) {
    let start = Date()
    while let current = transport, !unacknowledged.isEmpty {
      readAcknowledgements()
      if unacknowledged.isEmpty || current.peerClosed { break }
      let waited = Date().timeIntervalSince(start)
      if waited >= timeout || (!serverAcknowledges && waited >= Self.closingGrace) { break }
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
