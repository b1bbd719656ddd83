import Foundation
import TagscopeRecording

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
  private var closing = false
  private var finished = false
  private let capacity: Int
  private let interval: TimeInterval
  private let handler: Handler
  private let wakesWhenIdle: Bool
  private let idleInterval: TimeInterval?
  private var idleWakes = 0
  private var deepSleep = false

  /// A queue of at most `capacity` items drained by a new thread named `name`. With
  /// `wakesWhenIdle`, the handler is also called with an empty batch on every wake-up (for
  /// retries), at least every `idleInterval` when that is set.
  init(
    capacity: Int, interval: TimeInterval = 0.005, wakesWhenIdle: Bool = false,
    idleInterval: TimeInterval? = nil,
    name: String, handler: @escaping Handler
  ) {
    self.capacity = max(1, capacity)
    self.interval = interval
    self.idleInterval = idleInterval
    self.wakesWhenIdle = wakesWhenIdle
    self.handler = handler
    queue.reserveCapacity(min(self.capacity, 4096))
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.qualityOfService = .utility
    thread.start()
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
        condition.wait()
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
    // No lowered priority on Linux (where Foundation ignores the quality of service): a niced
    // writer lost most of its time to any busy process and dropped records it could have written.
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
    if let idleInterval {
      _ = condition.wait(until: Date(timeIntervalSinceNow: idleInterval))
    } else {
      condition.wait()
    }
    deepSleep = false
  }
}
