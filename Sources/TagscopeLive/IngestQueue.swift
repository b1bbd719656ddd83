import Foundation
import TagscopeServer

/// The bounded queue between the server's event loops (and the demo's inspector) and the live
/// session's worker: producers put events, the worker takes them all at once and reports when it
/// has stored them.
///
/// The bound counts records (other events count one) and their estimated bytes
/// (``LiveInput/bytes``) from when they are put until the worker finished them, so a slow disk or
/// plan check fills it; either reaching its capacity holds producers back (SDK records, with their
/// payloads, reach the bytes first: 20,000 of them held about 60 MB). It is a soft bound: ``put(_:)`` always
/// takes its event; producers ask ``hasRoom`` before reading more, and ``putWaiting(_:)`` blocks
/// until there is room. Callers waiting for room are resumed once the load falls to half the
/// capacity, so a full queue does not wake them for every record.
final class IngestQueue: @unchecked Sendable {
  /// Most records queued or being stored before producers are held back.
  let capacity: Int
  /// Most estimated bytes queued or being stored before producers are held back.
  let byteCapacity: Int
  private let condition = NSCondition()
  private var events: [LiveInput] = []
  /// Records (or one per other event) put and not yet finished.
  private var load = 0
  private var bytes = 0
  private var resumers: [@Sendable () -> Void] = []
  private var closed = false
  private var peakLoad = 0

  init(capacity: Int, byteCapacity: Int = IngestQueue.defaultByteCapacity) {
    self.capacity = max(1, capacity)
    self.byteCapacity = max(1, byteCapacity)
  }

  /// The default ``byteCapacity``: 8 MiB, a few thousand SDK records (enough to keep the worker
  /// busy while the event loops parse the next requests).
  static let defaultByteCapacity = 8 << 20

  /// Whether the load is under both capacities (the lock held).
  private var underCapacity: Bool { load < capacity && bytes < byteCapacity }

  /// Takes `event` (even when full, or after ``close()``: nothing handed over is lost).
  func put(_ event: LiveInput) {
    condition.lock()
    events.append(event)
    load += event.weight
    bytes += event.bytes
    peakLoad = max(peakLoad, load)
    condition.broadcast()
    condition.unlock()
  }

  /// Waits for room, then takes `event`: for producers that may block (the inspector's thread).
  func putWaiting(_ event: LiveInput) {
    condition.lock()
    while !underCapacity && !closed { condition.wait() }
    condition.unlock()
    put(event)
  }

  /// The largest load seen so far.
  var peak: Int {
    condition.lock()
    defer { condition.unlock() }
    return peakLoad
  }

  /// Whether the load is under both capacities.
  var hasRoom: Bool {
    condition.lock()
    defer { condition.unlock() }
    return underCapacity
  }

  /// Calls `resume` once the load falls to half of both capacities (at once when it is under
  /// them now).
  func whenRoom(_ resume: @escaping @Sendable () -> Void) {
    condition.lock()
    if underCapacity || closed {
      condition.unlock()
      resume()
      return
    }
    resumers.append(resume)
    condition.unlock()
  }

  /// Waits for events and takes all of them; `nil` once closed and empty.
  func takeAll() -> [LiveInput]? {
    condition.lock()
    defer { condition.unlock() }
    while events.isEmpty && !closed { condition.wait() }
    if events.isEmpty { return nil }
    let taken = events
    events.removeAll(keepingCapacity: true)
    return taken
  }

  /// The worker stored `events` (taken before): their weight leaves the bound.
  func finished(_ events: [LiveInput]) {
    let weight = events.reduce(0) { $0 + $1.weight }
    let size = events.reduce(0) { $0 + $1.bytes }
    condition.lock()
    load -= weight
    bytes -= size
    var resume: [@Sendable () -> Void] = []
    if load <= capacity / 2 && bytes <= byteCapacity / 2 {
      resume = resumers
      resumers = []
    }
    condition.broadcast()
    condition.unlock()
    for callback in resume { callback() }
  }

  /// Waits until everything put so far is finished.
  func waitUntilIdle() {
    condition.lock()
    while load > 0 { condition.wait() }
    condition.unlock()
  }

  /// No more waiting: ``takeAll()`` returns `nil` once empty, waiting producers and resumers go on.
  func close() {
    condition.lock()
    closed = true
    let resume = resumers
    resumers = []
    condition.broadcast()
    condition.unlock()
    for callback in resume { callback() }
  }
}
