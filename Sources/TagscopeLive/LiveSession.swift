import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeServer

/// The live pipeline of `tagscope listen` and `tagscope demo`: a bounded ingest queue, then, on one
/// worker thread and in arrival order, store (timeline append and recording write), plan check and
/// notification.
///
/// ```swift
/// let session = LiveSession(store: timeline, checker: checker) { _ in wakeup.signal() }
/// let server = try await ListenServer.start(configuration: configuration, ingest: session)
/// // … until the user quits
/// try await server.shutdown()
/// session.close()  // everything the server took is in the recording
/// ```
///
/// As a ``ListenIngest`` it holds the server's clients back when the queue is full; as a
/// ``RecordSink`` (an inspector's, in the demo) its `receive` waits for room, so the inspector's
/// own bounded backlog absorbs the burst. Whatever the queue took is stored before ``close()``
/// returns.
public final class LiveSession: ListenIngest, RecordSink, @unchecked Sendable {
  /// The default bound: records queued or being stored before clients are held back.
  public static let defaultCapacity = 20_000

  private let queue: IngestQueue
  private let store: (any LiveStore)?
  /// The session's one plan check, if any: the debugger, the query API and the reports read it.
  public let checker: PlanChecker?
  /// Each provider call of the in-app records followed to its wire record (``DeliveryLedger``):
  /// the worker queues the records it stores to the ledger's own thread, and every read of the
  /// ledger counts them all; `nil` when the session was made without it.
  public let delivery: DeliveryLedger?
  private let onUpdate: @Sendable (LiveUpdate) -> Void
  private var worker: WorkerThread?
  private let stateLock = NSLock()
  private var started = false
  private var closed = false
  private var observers: [@Sendable (LiveUpdate) -> Void] = []
  /// Acknowledgements wait here for an `fsync` of what they cover (`nil` without a store, or with
  /// `syncsBeforeAcknowledging: false`, only to measure its cost).
  private let groupCommit: GroupCommit?
  /// Only the worker touches these.
  private var position = 0
  private var reportedWriteFailure = false
  /// The worker's: returns freed heap to the system as records go through.
  private var trimmer = HeapTrimmer()

  /// A session storing to `store` (none: nothing is written), checking with `checker`, calling
  /// `onUpdate` on its worker thread after each batch. The worker starts at once.
  ///
  /// Acknowledgements (``whenStored(_:)``: native `{"ack":N}`, SDK replies) mean durable: once a
  /// batch is written, its acknowledgements go to a syncing thread that calls the store's `fsync`
  /// once for every batch written while its previous one ran (group commit), then acknowledges,
  /// while the worker writes on; `syncsBeforeAcknowledging: false` skips it. `delivery`: the
  /// ledger the stored records feed (`nil`: none, only to measure its cost).
  public init(
    store: (any LiveStore)?, checker: PlanChecker? = nil, capacity: Int = LiveSession.defaultCapacity,
    syncsBeforeAcknowledging: Bool = true, delivery: DeliveryLedger? = DeliveryLedger(),
    onUpdate: @escaping @Sendable (LiveUpdate) -> Void = { _ in }
  ) {
    self.delivery = delivery
    groupCommit = syncsBeforeAcknowledging ? store.map { GroupCommit(store: $0) } : nil
    queue = IngestQueue(capacity: capacity)
    self.store = store
    self.checker = checker
    self.onUpdate = onUpdate
    worker = WorkerThread(name: "tagscope.live") { [self] _ in work() }
  }

  /// The queue's bound.
  public var capacity: Int { queue.capacity }

  /// The most records queued or being stored at once so far.
  public var peakLoad: Int { queue.peak }

  /// Calls `observer` on the worker thread after each batch, after `onUpdate` (the query API's
  /// ``QueryService`` counts and completes its waits from here).
  public func addObserver(_ observer: @escaping @Sendable (LiveUpdate) -> Void) {
    stateLock.lock()
    observers.append(observer)
    stateLock.unlock()
  }

  /// Writes `marker` to the recording behind everything delivered so far, then calls `done` on
  /// the worker thread with the session position of the next record (the query API's reset).
  public func mark(_ marker: DropMarker, done: @escaping @Sendable (Int) -> Void) {
    queue.put(.marker(SinkItem(marker), done: done))
  }

  // MARK: ListenIngest

  /// Encodes the lines of `event`'s records (on the caller's thread, the event loop) and queues it.
  public func deliver(_ event: ListenEvent) { queue.put(LiveInput(event)) }

  /// Queues native records with the lines they arrived as: stored as they are, never encoded again.
  public func deliver(_ records: [Record], lines: [[UInt8]]) {
    queue.put(.event(.records(records), items: zip(records, lines).map { .record($0, line: $1) }))
  }

  /// Queues the records of a request the proxy forwards: the ledger has them in flight until
  /// `exchange` says the vendor's answer.
  public func deliver(_ records: [Record], forwardedIn exchange: WireExchange) {
    queue.put(.forwarded(records, items: SinkItem.items(records), exchange: exchange))
  }

  public var hasRoom: Bool { queue.hasRoom }

  public func whenRoom(_ resume: @escaping @Sendable () -> Void) { queue.whenRoom(resume) }

  /// Queues `done` behind what was delivered so far; the worker calls it once that is written.
  public func whenStored(_ done: @escaping @Sendable () -> Void) { queue.put(.stored(done)) }

  /// Queues `done` behind what was delivered so far; the worker calls it once that is written to
  /// the store (synced or not, and even after a failed write: it bounds memory, not durability).
  public func whenApplied(_ done: @escaping @Sendable () -> Void) { queue.put(.applied(done)) }

  // MARK: RecordSink

  /// Waits for room, then queues `items` (an inspector's batch).
  public func receive(_ items: [SinkItem]) {
    guard !items.isEmpty else { return }
    queue.putWaiting(.items(items))
  }

  /// Returns once everything queued so far is stored, checked and notified.
  public func flush() {
    stateLock.lock()
    let isClosed = closed
    stateLock.unlock()
    if isClosed { return }
    queue.waitUntilIdle()
    groupCommit?.waitUntilIdle()
    store?.flush()
  }

  /// The `fsync` calls made for acknowledgements so far.
  public var syncCount: Int { groupCommit?.syncCount ?? 0 }

  /// Stores what is queued, stops the worker and closes the store. Later events are still taken
  /// but never stored.
  public func close() {
    stateLock.lock()
    let first = !closed
    closed = true
    stateLock.unlock()
    guard first else { return }
    queue.close()
    worker?.join()
    groupCommit?.close()
    store?.close()
    delivery?.finish()
  }

  // MARK: Worker

  private func work() {
    while let batch = queue.takeAll() {
      var applied: [@Sendable () -> Void] = []
      var start = 0
      for (index, input) in batch.enumerated() {
        switch input {
        case .marker, .answer: break
        default: continue
        }
        if start < index { applied += process(Array(batch[start..<index])) }
        switch input {
        case .marker(let item, let done):
          store?.receive([item])
          done(position)
        case .answer(let status, let time, let positions):
          let answer = DeliveryAnswerMarker(
            status: status, records: positions.count, back: position - positions.lowerBound, time: time)
          store?.receive([SinkItem(answer.dropMarker)])
        default: break
        }
        start = index + 1
      }
      if start < batch.count { applied += process(start == 0 ? batch : Array(batch[start...])) }
      queue.finished(batch)
      for done in applied { done() }
    }
  }

  /// Stores, checks and notifies `batch`; returns its ``LiveInput/applied(_:)`` callbacks, called
  /// once the queue finished the batch.
  private func process(_ batch: [LiveInput]) -> [@Sendable () -> Void] {
    // The arrays the batch's items and records came in, never joined into one (that copies each
    // item and its record): the store writes them and the ledger's worker reads them where they are.
    var lines: [[SinkItem]] = []
    var segments: [[Record]] = []
    var events: [ListenEvent] = []
    var stored: [@Sendable () -> Void] = []
    var applied: [@Sendable () -> Void] = []
    var forwarded = ForwardedRuns()
    for input in batch {
      switch input {
      case .stored(let done): stored.append(done)
      case .applied(let done): applied.append(done)
      case .marker, .answer: break
      case .event(let event, let items):
        events.append(event)
        if !items.isEmpty { lines.append(items) }
        if case .records(let records) = event {
          segments.append(records.count == items.count ? records : Array(records.prefix(items.count)))
        }
        forwarded.skip(items)
      case .forwarded(let records, let items, let exchange):
        events.append(.records(records))
        // Marked in the recording: validate's offline ledger has them in flight until their answer.
        if delivery != nil {
          lines.append([SinkItem(DeliveryForwardMarker(records: records.count, time: Date()).dropMarker)])
        }
        lines.append(items)
        segments.append(records)
        forwarded.add(records.count, exchange)
      case .items(let received):
        lines.append(received)
        forwarded.skip(received)
        var records: [Record] = []
        for item in received {
          switch item {
          case .record(let record, _): records.append(record)
          case .dropped(let marker, _):
            if !records.isEmpty {
              events.append(.records(records))
              segments.append(records)
            }
            records = []
            events.append(.dropped(source: "inspector", marker: marker))
          }
        }
        if !records.isEmpty {
          events.append(.records(records))
          segments.append(records)
        }
      }
    }
    if let store, !lines.isEmpty { store.receive(segments: lines) }
    let first = position
    // Queued to the ledger before anything is acknowledged: a reader asking after an
    // acknowledgement counts its records. Each answer is written behind the records then stored,
    // for validate's offline ledger.
    if let delivery {
      forwarded.observe(segments, firstPosition: first, in: delivery) { [queue] positions, status, time in
        queue.put(.answer(status: status, at: time, positions: positions))
      }
    }
    if let groupCommit {
      // Durable: acknowledged after the next fsync, while this thread writes on.
      groupCommit.acknowledge(stored)
    } else if store?.lastWriteError == nil {
      // An acknowledgement means written: none once a write failed (clients keep those records).
      for done in stored { done() }
    }
    var violations: [[PlanViolation]] = []
    if let checker {
      // The stored records, in order: the segments hold each one the items do.
      for records in segments {
        for index in records.indices {
          violations.append(checker.check(records[index], at: position))
          position += 1
        }
      }
    } else {
      position += forwarded.records
    }
    var failure: SystemError?
    if !reportedWriteFailure, let error = store?.lastWriteError {
      reportedWriteFailure = true
      failure = error
    }
    let update = LiveUpdate(
      events: events, violations: violations, firstPosition: first, writeFailure: failure)
    onUpdate(update)
    stateLock.lock()
    let observing = observers
    stateLock.unlock()
    for observer in observing { observer(update) }
    trimmer.handled(position - first)
    return applied
  }
}
