import Foundation
import TagscopeRecording

/// What the delivery ledger's worker applies to its book, in the order it was queued.
enum DeliveryInput: Sendable {
  /// Records stored, as the producer holds them: the worker reads them (``DeliveryFeed``).
  case records(DeliveryItems)
  /// The facts of records already read (validate's offline audit, a closed inbox).
  case facts(DeliveryBatch)
  /// The vendor's answer to the wire record at `wirePosition`.
  case answer(wirePosition: Int, status: Int, at: Int64)

  /// What it counts against the inbox's bound: its records (an answer, none: it never waits).
  var weight: Int {
    switch self {
    case .records(let items): items.records
    case .facts(let batch): batch.records
    case .answer: 0
    }
  }
}

/// A batch of records the live session stored, handed to the ledger's worker whole: the arrays it
/// holds them in (never copied record by record), where they start and which of them are in flight.
struct DeliveryItems: Sendable {
  /// The records, in session order, in the producer's arrays (read where they lie: an array's
  /// record is borrowed, never copied, where a `SinkItem`'s is copied out of its enum).
  var segments: [[Record]]
  /// How many records they hold.
  var records: Int
  /// The session position of the first record.
  var firstPosition: Int
  /// The record offsets (from the first) of wire records still waiting for their vendor's answer.
  var unanswered: [Range<Int>]
  /// When the Mac received them (ms).
  var received: Int64
}

/// The bounded queue between the live session's worker and the delivery ledger's own worker:
/// ingest queues what the ledger needs and returns; the worker takes everything queued at once
/// and applies it to the book. Every input has a mark (how many were queued before and with it),
/// and a reader waits until the worker has applied up to the mark it saw, so what it reads counts
/// everything queued before it asked.
///
/// The bound counts records queued or being applied: a producer putting records into a full inbox
/// waits for room (never drops, never grows past it by more than its own batch). Answers never
/// wait (their wire records were counted).
///
/// `@unchecked Sendable`: every field is read and written under `condition` only.
final class DeliveryInbox: @unchecked Sendable {
  /// Most records queued or being applied before producers wait.
  let capacity: Int
  private let condition = NSCondition()
  private var pending: [DeliveryInput] = []
  private var load = 0
  private var peakLoad = 0
  private var waiting = 0
  /// Inputs queued so far, and applied so far: marks.
  private var queued = 0
  private var applied = 0
  private var callbacks: [(mark: Int, done: @Sendable () -> Void)] = []
  /// Inputs the worker applied, let go of by the next producer or reader (``takeSpent()``), not
  /// by the worker: the ledger often holds the last reference to a batch's records, and freeing
  /// them took a sizeable share of the worker's time, on the thread that is the bottleneck.
  private var spent: [DeliveryInput] = []
  private var started = false
  private var running = false
  private var closed = false
  /// The worker's thread, while it runs: a reader on it (a wait's completion) never waits for it.
  private var workerThread: pthread_t?

  init(capacity: Int) { self.capacity = max(1, capacity) }

  /// How a ``put(_:)`` went.
  enum Outcome {
    /// Queued; `startsWorker`: the first input, the caller starts the worker.
    case queued(startsWorker: Bool)
    /// The inbox is closed: the caller applies it itself (after ``waitUntilApplied()``).
    case closed
  }

  /// Queues `input`, first waiting while the load is at the capacity (records only); a producer
  /// of records first lets go of the inputs applied since (an answer's, on an event loop, not).
  func put(_ input: DeliveryInput) -> Outcome {
    let weight = input.weight
    if weight > 0 { takeSpent() }
    condition.lock()
    defer { condition.unlock() }
    while weight > 0 && load >= capacity && !closed {
      waiting += 1
      condition.wait()
      waiting -= 1
    }
    guard !closed else { return .closed }
    pending.append(input)
    load += weight
    peakLoad = max(peakLoad, load)
    queued += 1
    let starting = !started
    started = true
    running = true
    condition.broadcast()
    return .queued(startsWorker: starting)
  }

  /// The most records queued or being applied at once so far.
  var peak: Int {
    condition.lock()
    defer { condition.unlock() }
    return peakLoad
  }

  /// Producers waiting for room now.
  var waitingForRoom: Int {
    condition.lock()
    defer { condition.unlock() }
    return waiting
  }

  // MARK: The worker

  /// Called first on the worker's thread.
  func enter() {
    condition.lock()
    workerThread = pthread_self()
    condition.unlock()
  }

  /// Everything queued (at least one input), or `nil` once closed and empty (the worker ends).
  func take() -> [DeliveryInput]? {
    condition.lock()
    defer { condition.unlock() }
    while pending.isEmpty && !closed { condition.wait() }
    guard !pending.isEmpty else {
      running = false
      workerThread = nil
      condition.broadcast()
      return nil
    }
    let taken = pending
    pending = []
    return taken
  }

  /// The worker applied `batch`: frees its room and returns the catch-up callbacks now due.
  func applied(_ batch: consuming [DeliveryInput]) -> [@Sendable () -> Void] {
    condition.lock()
    defer { condition.unlock() }
    load -= batch.reduce(0) { $0 + $1.weight }
    applied += batch.count
    spent += batch
    condition.broadcast()
    guard !callbacks.isEmpty else { return [] }
    let due = callbacks.filter { $0.mark <= applied }.map(\.done)
    callbacks.removeAll { $0.mark <= applied }
    return due
  }

  // MARK: Readers

  /// Waits until everything queued before this call is applied (at once on the worker's thread),
  /// then lets go of the inputs applied.
  func waitUntilApplied() {
    condition.lock()
    if let workerThread, pthread_equal(workerThread, pthread_self()) != 0 {
      condition.unlock()
      return
    }
    let mark = queued
    while applied < mark { condition.wait() }
    condition.unlock()
    takeSpent()
  }

  /// Lets go of the inputs applied so far, on this thread and outside the lock.
  private func takeSpent() {
    condition.lock()
    let taken = spent
    spent = []
    condition.unlock()
    withExtendedLifetime(taken) {}
  }

  /// Calls `done` once everything queued before this call is applied: at once on this thread if
  /// it is, else on the worker's thread.
  func whenApplied(_ done: @escaping @Sendable () -> Void) {
    condition.lock()
    guard applied < queued else {
      condition.unlock()
      return done()
    }
    callbacks.append((queued, done))
    condition.unlock()
  }

  /// Takes no more input; returns once the worker applied everything queued and ended.
  func close() {
    condition.lock()
    defer { condition.unlock() }
    closed = true
    condition.broadcast()
    if let workerThread, pthread_equal(workerThread, pthread_self()) != 0 { return }
    while running { condition.wait() }
    spent = []
  }
}
