import Foundation
import TagscopeRecording

/// Each provider call the hub handed to an SDK, followed to its fate on the wire: the live
/// session feeds it the in-app records (the inspector's) and the wire records (what SDKs sent to
/// `listen` or through the proxy) as it stores them; the query API, the headless summary and the
/// debugger read its ``snapshot(_:now:)``.
///
/// The live session ``enqueue(_:firstPosition:received:wireAnswered:)``s its records and goes on:
/// the ledger's own worker thread matches them, in batches, behind a bounded inbox (full, the
/// session waits for room: nothing is dropped). Every reader first waits until the worker has
/// applied what was queued before it asked, so its answer counts every record stored before.
/// ``observe(_:firstPosition:received:wireAnswered:)`` matches on the caller's thread (validate's
/// offline audit).
///
/// ```swift
/// let ledger = DeliveryLedger()
/// ledger.observe([inAppRecord, wireRecord], firstPosition: 0)
/// let counts = ledger.snapshot().counts  // [.delivered: 1]
/// ```
///
/// How a call and a wire call are matched is ``DeliveryBook``'s rule (`tagscope help listen`).
///
/// `@unchecked Sendable`: the book and the waits are read and written under `lock` only, the
/// feed under `feedLock` (taken before `lock`) only, the inbox is its own lock's.
public final class DeliveryLedger: @unchecked Sendable {
  /// How far apart a call and its wire call may be, by the device's clock or the Mac's.
  public static let defaultWindow: TimeInterval = 30

  /// The default bound of the inbox: records queued for the worker before the session waits.
  public static let defaultInboxCapacity = 16_384

  private let inbox: DeliveryInbox
  /// Held while records are read into facts and queued (or applied) in that order: the feed's
  /// numbers are the book's.
  private let feedLock = NSLock()
  private var feed = DeliveryFeed()
  private let lock = NSLock()
  private var book: DeliveryBook
  private var waits: [Int: (upTo: Int, done: @Sendable () -> Void)] = [:]
  private var nextWait = 0
  private var changeHandlers: [@Sendable () -> Void] = []

  /// Index entries the matching has looked through so far: it grows linearly with the calls and
  /// wire calls (each key's index is bounded), whatever stays queued or unexplained.
  public var matchingWork: Int {
    inbox.waitUntilApplied()
    lock.lock()
    defer { lock.unlock() }
    return book.scanned
  }

  /// The most calls (or wire calls) of one provider, name and parameters the matching looks
  /// through (and, for a wire call whose parameters are not read, of one provider and name).
  public static var matchingIndexLimit: Int { DeliveryBook.indexLimit }

  /// The settled calls (delivered, refused, dropped by the SDK, lost) of one device whose entries
  /// are kept by default: older ones (made two windows before its newest settling) are only
  /// counted.
  public static let defaultKeptSettled = 1_000

  /// An empty ledger matching within `window` seconds; `wireProviders`: providers a wire source
  /// is set up for even before any of their wire records arrive; `inboxCapacity`: the most
  /// records queued for its worker before ``enqueue(_:firstPosition:received:wireAnswered:)``
  /// waits; `keptSettled`: the settled calls of one device whose entries are kept.
  public init(
    window: TimeInterval = DeliveryLedger.defaultWindow, wireProviders: Set<String> = [],
    inboxCapacity: Int = DeliveryLedger.defaultInboxCapacity,
    keptSettled: Int = DeliveryLedger.defaultKeptSettled
  ) {
    book = DeliveryBook(
      window: Int64(window * 1000), configuredProviders: wireProviders, keptSettled: max(1, keptSettled))
    inbox = DeliveryInbox(capacity: inboxCapacity)
  }

  /// The inbox's bound.
  public var inboxCapacity: Int { inbox.capacity }

  /// The most records queued for the worker (or being matched) at once so far.
  public var peakInboxLoad: Int { inbox.peak }

  /// Producers waiting for room in the inbox now (the backpressure test's condition).
  var producersWaitingForRoom: Int { inbox.waitingForRoom }

  /// Queues `records` for the ledger's worker, as ``observe(_:firstPosition:received:wireAnswered:)``
  /// would take them, and returns (once there is room in the inbox): the worker reads and matches
  /// them.
  public func enqueue(
    _ records: [Record], firstPosition: Int, received: Date = Date(), wireAnswered: Bool = true
  ) {
    guard !records.isEmpty else { return }
    enqueue(
      [records], firstPosition: firstPosition, unanswered: wireAnswered ? [] : [0..<records.count],
      received: received)
  }

  /// Queues the records of `segments` (the arrays the live session holds its batch's records in,
  /// handed over whole: nothing is read or copied here), the first at session position
  /// `firstPosition`; the wire records at the record offsets in `unanswered` stay in flight until
  /// ``answered(wirePosition:status:at:)``.
  func enqueue(
    _ segments: [[Record]], firstPosition: Int, unanswered: [Range<Int>], received: Date = Date()
  ) {
    let records = segments.reduce(0) { $0 + $1.count }
    guard records > 0 else { return }
    queue(
      .records(
        DeliveryItems(
          segments: segments, records: records, firstPosition: firstPosition, unanswered: unanswered,
          received: received.recordMilliseconds)))
  }

  /// Adds `records`, stored from session position `firstPosition` on and received (by the Mac's
  /// clock) at `received`: in-app records' calls and wire records (``Record/isFromSDK``).
  /// `wireAnswered`: `listen` answered the wire records itself, with success (no vendor behind
  /// it); otherwise they are in flight until ``answered(wirePosition:status:at:)``.
  public func observe(
    _ records: [Record], firstPosition: Int, received: Date = Date(), wireAnswered: Bool = true
  ) {
    inbox.waitUntilApplied()
    feedLock.lock()
    defer { feedLock.unlock() }
    records.withUnsafeBufferPointer { records in
      for offset in records.indices {
        feed.add(records.baseAddress! + offset, at: firstPosition + offset, answered: wireAnswered)
      }
    }
    let batch = feed.take(received: received.recordMilliseconds)
    let ready = mutate { $0.apply(batch) }
    for done in ready { done() }
  }

  /// The vendor answered the wire record at `wirePosition` with HTTP `status` at `time` (queued
  /// behind the records enqueued before; never waits for room).
  public func answered(wirePosition: Int, status: Int, at time: Date = Date()) {
    queue(.answer(wirePosition: wirePosition, status: status, at: time.recordMilliseconds))
  }

  /// The session ended: once the worker applied everything queued, calls still queued are lost
  /// (or have no wire source). Later records are matched on the caller's thread.
  public func finish() {
    inbox.close()
    let ready = mutate { $0.finish() }
    for done in ready { done() }
  }

  /// Calls `done` once the worker has applied everything queued before this call: at once on
  /// this thread if it has, else on the worker's thread (a reader that must not wait: the query
  /// API on an event loop).
  public func whenCaughtUp(_ done: @escaping @Sendable () -> Void) { inbox.whenApplied(done) }

  /// The number of calls so far: a wait's mark.
  public var callCount: Int {
    inbox.waitUntilApplied()
    lock.lock()
    defer { lock.unlock() }
    return book.calls.count
  }

  /// The calls and wire calls whose entries are kept (the others are only counted), and the
  /// entries of the book's side tables.
  var keptEntries: (calls: Int, wires: Int, sideTables: Int) {
    inbox.waitUntilApplied()
    lock.lock()
    defer { lock.unlock() }
    return (book.calls.keptCount, book.wires.keptCount, book.sideTableCount)
  }

  /// The number of calls the worker has applied so far, without waiting for it.
  var appliedCallCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return book.calls.count
  }

  /// Whether every one of the first `count` calls is settled (``DeliveryState/isSettled``; a
  /// queued call of a provider without a wire source is).
  public func isSettled(upTo count: Int) -> Bool {
    inbox.waitUntilApplied()
    lock.lock()
    defer { lock.unlock() }
    return settled(upTo: count)
  }

  /// Calls `done` once every one of the first `count` calls is settled (at once if they are);
  /// returns a token for ``cancelWait(_:)``.
  @discardableResult
  public func whenSettled(upTo count: Int, _ done: @escaping @Sendable () -> Void) -> Int {
    lock.lock()
    if settled(upTo: count) {
      lock.unlock()
      done()
      return -1
    }
    let token = nextWait
    nextWait += 1
    waits[token] = (count, done)
    lock.unlock()
    return token
  }

  /// Forgets the wait of `token`; returns whether it was still pending.
  @discardableResult
  public func cancelWait(_ token: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return waits.removeValue(forKey: token) != nil
  }

  /// Calls `handler` each time the ledger applied records or answers (on the thread that applied
  /// them, outside its lock): a reader whose answer depends on the calls' states (the query API's
  /// `delivery:` waits) looks again.
  public func onChange(_ handler: @escaping @Sendable () -> Void) {
    lock.lock()
    defer { lock.unlock() }
    changeHandlers.append(handler)
  }

  /// The states of the calls (whose entries are kept) of the in-app records at the session
  /// positions in `range`, by position: the query API's `delivery:` filter.
  public func states(in range: Range<Int>) -> [Int: [DeliveryState]] {
    inbox.waitUntilApplied()
    lock.lock()
    defer { lock.unlock() }
    var states: [Int: [DeliveryState]] = [:]
    book.calls.forEachKept { _, call in
      guard range.contains(call.position) else { return }
      let state = call.state == .queued && !book.hasWireSource(call) ? .noWireSource : call.state
      states[call.position, default: []].append(state)
    }
    return states
  }

  /// The entries of the calls of the in-app record at session position `position` (the
  /// debugger's selected record), without building the others'.
  public func entries(atPosition position: Int, now: Date = Date()) -> [DeliveryEntry] {
    inbox.waitUntilApplied()
    lock.lock()
    defer { lock.unlock() }
    let nowMilliseconds = now.recordMilliseconds
    var entries: [DeliveryEntry] = []
    book.calls.forEachKept { number, call in
      if call.position == position { entries.append(entry(number, call, now: nowMilliseconds)) }
    }
    return entries
  }

  /// The entries passing `filter` and the counts of its provider and device, as of `now`.
  public func snapshot(_ filter: DeliveryFilter = DeliveryFilter(), now: Date = Date()) -> DeliverySnapshot {
    inbox.waitUntilApplied()
    return currentSnapshot(filter, now: now)
  }

  /// The snapshot of what the worker has applied so far, without waiting for it.
  func currentSnapshot(_ filter: DeliveryFilter, now: Date = Date()) -> DeliverySnapshot {
    lock.lock()
    defer { lock.unlock() }
    let names = book.names
    let provider = filter.provider.map { names.known(provider: $0) ?? -1 }
    let device = filter.device.map { names.known(source: $0) ?? -1 }
    let nowMilliseconds = now.recordMilliseconds
    var counts: [DeliveryState: Int] = [:]
    var entries: [DeliveryEntry] = []
    book.calls.forEachKept { number, call in
      guard provider.map({ $0 == names.labels[Int(call.label)].provider }) ?? true,
        device.map({ $0 == call.device }) ?? true
      else { return }
      let state = call.state == .queued && !book.hasWireSource(call) ? .noWireSource : call.state
      counts[state, default: 0] += 1
      if filter.state.map({ $0 == state }) ?? true {
        entries.append(self.entry(number, call, now: nowMilliseconds))
      }
    }
    for (key, retired) in book.retiredCounts
    where provider.map({ Int64($0) == key & 0xFFFF_FFFF }) ?? true
      && device.map({ Int64($0) == key >> 32 }) ?? true
    {
      for (place, count) in retired.enumerated() where count > 0 {
        counts[DeliveryState.allCases[place], default: 0] += count
      }
    }
    if entries.count > filter.limit { entries.removeFirst(entries.count - filter.limit) }
    var unexplained: [UnexplainedWireCall] = []
    book.wires.forEachKept { _, wire in
      let label = names.labels[Int(wire.label)]
      guard !wire.isExplained, provider.map({ $0 == label.provider }) ?? true else { return }
      unexplained.append(
        UnexplainedWireCall(
          position: wire.position, provider: names.providers[Int(label.provider)], method: label.method,
          name: label.name, source: names.sources[Int(wire.source)], time: Date(recordMilliseconds: wire.time)
        ))
    }
    var letGo: [String: Int] = [:]
    for retired in book.retiredUnexplained.values.joined()
    where provider.map({ $0 == retired.provider }) ?? true {
      letGo[names.sources[Int(retired.source)], default: 0] += retired.count
    }
    return DeliverySnapshot(
      counts: counts, entries: entries, unexplained: unexplained,
      unexplainedCount: unexplained.count + letGo.values.reduce(0, +), letGoUnexplained: letGo)
  }

  // MARK: Private

  /// Hands `input` to the worker (started with the first), or applies it here once the inbox is
  /// closed (after ``finish()``).
  private func queue(_ input: DeliveryInput) {
    switch inbox.put(input) {
    case .queued(let startsWorker):
      guard startsWorker else { return }
      _ = WorkerThread(name: "tagscope.delivery") { [self] _ in work() }
    case .closed:
      inbox.waitUntilApplied()
      feedLock.lock()
      let ready = mutate { Self.apply(input, to: &$0, feed: &feed) }
      feedLock.unlock()
      for done in ready { done() }
    }
  }

  /// The worker: applies each batch queued under one lock, then completes the waits it settled
  /// and the readers caught up with, outside it.
  private func work() {
    inbox.enter()
    while let batch = inbox.take() {
      // Read and applied under the feed's lock: the names are numbered in the book's order.
      feedLock.lock()
      let ready = mutate { book in
        for input in batch { Self.apply(input, to: &book, feed: &feed) }
      }
      feedLock.unlock()
      for done in ready { done() }
      // Handed over: the inbox's spent list holds its records' last reference, so a reader
      // caught up lets go of them (not this thread, after the reader looked).
      for done in inbox.applied(consume batch) { done() }
    }
  }

  /// Applies `input` to `book`, its records read by `feed` first (under `feedLock`).
  private static func apply(_ input: DeliveryInput, to book: inout DeliveryBook, feed: inout DeliveryFeed) {
    switch input {
    case .records(let items):
      let batch = feed.read(items)
      book.apply(batch)
      feed.recycle(consume batch)
    case .facts(let batch): book.apply(batch)
    case .answer(let position, let status, let time):
      book.answer(position: position, status: status, at: time)
    }
  }

  private func entry(_ number: Int32, _ call: DeliveryBook.Call, now: Int64) -> DeliveryEntry {
    let names = book.names
    let label = names.labels[Int(call.label)]
    let provider = names.providers[Int(label.provider)]
    var state = call.state
    if state == .queued && !book.hasWireSource(call) { state = .noWireSource }
    let wire = call.wire >= 0 ? book.wires[call.wire] : nil
    let called = book.macTime(of: number)
    let latency = wire?.answer.map { Int(max(0, $0.at - called)) }
    return DeliveryEntry(
      number: Int(number) + 1, position: call.position, callIndex: Int(call.callIndex), provider: provider,
      method: label.method, name: label.name, device: names.sources[Int(call.device)],
      called: Date(recordMilliseconds: call.called), state: state, wirePosition: wire?.position,
      wireSource: wire.map { names.sources[Int($0.source)] }, answerStatus: wire?.answer?.status,
      latencyMilliseconds: latency, ageMilliseconds: state == .queued ? Int(max(0, now - called)) : nil,
      reason: state == .noWireSource ? "no wire source for \(provider)" : book.reasons[number],
      candidates: (book.candidates[number] ?? []).map { book.wires[$0].position })
  }

  /// Under the lock.
  private func settled(upTo count: Int) -> Bool { !book.hasUnsettled(below: count) }

  /// Runs `change` on the book under the lock; returns the waits it completed, to call outside it.
  private func mutate(_ change: (inout DeliveryBook) -> Void) -> [@Sendable () -> Void] {
    lock.lock()
    defer { lock.unlock() }
    change(&book)
    var ready = changeHandlers
    for (token, wait) in waits where settled(upTo: wait.upTo) {
      ready.append(wait.done)
      waits[token] = nil
    }
    return ready
  }
}
