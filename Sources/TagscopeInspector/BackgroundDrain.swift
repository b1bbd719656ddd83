import Foundation
import TagscopeRecording

#if canImport(Glibc)
  import Glibc
#endif

/// A bounded queue that producers fill without ever blocking and one background thread drains in
/// batches.
///
/// Producers pay a lock and an append; they never wait for the consumer and, while items keep
/// coming, never wake it (the thread polls every `interval`, and is woken when the queue is half
/// full, on `flush` and on `close`). After 20 empty polls the thread sleeps until an item arrives
/// (or `idleInterval` passes), so an idle app pays no wake-ups. When the queue is full the item is
/// dropped and counted; the handler learns of the drops right after the batch they followed, so
/// it can write them down in order.
final class BackgroundDrain<Item: Sendable>: @unchecked Sendable {
  /// One batch: the items in order, then how many items were dropped after them.
  typealias Handler = @Sendable (_ items: [Item], _ droppedAfter: Int) -> Void

  private let condition = NSCondition()
  private var queue: [Item] = []
  private var spare: [Item] = []
  private var pendingDrops = 0
  private var totalDrops = 0
  private var pushed: UInt64 = 0
  private var handled: UInt64 = 0
  private var wakeRequested = false
  private var waiters = 0
  private var closing = false
  private var finished = false
  private var capacity: Int
  private let lowPriority: Bool
  private let interval: TimeInterval
  private let handler: Handler
  private let wakesWhenIdle: Bool
  private let idleInterval: TimeInterval?
  private let idleWake: (@Sendable () -> TimeInterval?)?
  private var idleWakes = 0
  private var deepSleep = false

  /// A queue of at most `capacity` items drained by a new thread named `name`. With
  /// `wakesWhenIdle`, the handler is also called with an empty batch on every wake-up (for
  /// retries), at least every `idleInterval` when that is set — or every `idleWake()`, asked on the
  /// drain's thread before each long sleep, when the handler knows when it next has work (a retry
  /// due). With `lowPriority`, the thread yields to the app's threads (on Linux it is niced, as
  /// `.utility` does on Apple platforms).
  init(
    capacity: Int, interval: TimeInterval = 0.005, wakesWhenIdle: Bool = false,
    idleInterval: TimeInterval? = nil, idleWake: (@Sendable () -> TimeInterval?)? = nil,
    lowPriority: Bool = true, name: String, handler: @escaping Handler
  ) {
    self.capacity = max(1, capacity)
    self.lowPriority = lowPriority
    self.interval = interval
    self.idleInterval = idleInterval
    self.idleWake = idleWake
    self.wakesWhenIdle = wakesWhenIdle
    self.handler = handler
    queue.reserveCapacity(min(self.capacity, 4096))
    _ = WorkerThread(name: name, qualityOfService: lowPriority ? .utility : .userInitiated) { [self] _ in
      run()
    }
  }

  /// Enqueues an item; `false` (and the drop counted) when the queue is full or closed. With
  /// `waiting`, a full queue makes the caller wait for room instead (backpressure, for producers
  /// that may block: a data generator, never an app's thread).
  @discardableResult
  func push(_ item: Item, waiting: Bool = false) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if waiting {
      while !closing && queue.count >= capacity {
        if !wakeRequested {
          wakeRequested = true
          condition.broadcast()
        }
        waiters += 1
        condition.wait()
        waiters -= 1
      }
    }
    guard !closing, queue.count < capacity else {
      pendingDrops += 1
      totalDrops += 1
      return false
    }
    queue.append(item)
    pushed += 1
    if (deepSleep || queue.count == capacity / 2) && !wakeRequested {
      wakeRequested = true
      condition.broadcast()
    }
    return true
  }

  /// Items dropped since the queue was made.
  var droppedCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return totalDrops
  }

  /// The most items the queue holds; changing it wakes producers waiting for room.
  var limit: Int {
    get {
      condition.lock()
      defer { condition.unlock() }
      return capacity
    }
    set {
      condition.lock()
      defer { condition.unlock() }
      let grew = newValue > capacity
      capacity = max(1, newValue)
      if grew { condition.broadcast() }
    }
  }

  /// Whether the thread is in its long idle sleep (for tests: an item pushed now must wake it).
  var isIdle: Bool {
    condition.lock()
    defer { condition.unlock() }
    return deepSleep
  }

  /// Items waiting.
  var backlog: Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count
  }

  /// Blocks until every item pushed before the call has been handled.
  func flush() {
    condition.lock()
    let target = pushed
    wakeRequested = true
    condition.broadcast()
    while handled < target && !finished { condition.wait() }
    condition.unlock()
  }

  /// Handles what is queued, then stops the thread; later pushes are dropped. Blocks until done.
  func close() {
    condition.lock()
    closing = true
    condition.broadcast()
    while !finished { condition.wait() }
    condition.unlock()
  }

  private func run() {
    #if canImport(Glibc)
      // Foundation ignores the quality of service on Linux: lower this thread's priority by hand
      // (who 0 is this thread). A waiting producer's drain keeps the normal priority, since the
      // producer can go no faster than this thread.
      if lowPriority { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
    #endif
    condition.lock()
    while true {
      if queue.isEmpty && pendingDrops == 0 {
        if closing { break }
        if !wakeRequested { sleep() }
        wakeRequested = false
        if queue.isEmpty && pendingDrops == 0 {
          idleWakes += 1
          if !(wakesWhenIdle && !closing) { continue }
        } else {
          idleWakes = 0
        }
      } else {
        idleWakes = 0
      }
      swap(&queue, &spare)
      let drops = pendingDrops
      pendingDrops = 0
      wakeRequested = false
      // Producers waiting for room fill the emptied queue while this batch is handled.
      if waiters > 0 { condition.broadcast() }
      condition.unlock()
      handler(spare, drops)
      let count = UInt64(spare.count)
      spare.removeAll(keepingCapacity: true)
      condition.lock()
      handled += count
      condition.broadcast()
    }
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// Waits (lock held): a short poll while busy, a long sleep once idle.
  private func sleep() {
    guard idleWakes >= 20 else {
      _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
      return
    }
    deepSleep = true
    if let limit = idleWake?() ?? idleInterval {
      _ = condition.wait(until: Date(timeIntervalSinceNow: limit))
    } else {
      condition.wait()
    }
    deepSleep = false
  }
}
