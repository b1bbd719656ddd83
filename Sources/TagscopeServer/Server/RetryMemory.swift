import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The SDK messages `listen` took, then answered `503` + `Retry-After` because the disk did not
/// make them durable within the request timeout: they are still written, and the SDK sends them
/// again. A message of a later request that matches one remembered here is that retry: skipped
/// (and counted), so each message is recorded once. A recording being continued gives its last
/// messages with an id (``RecordedMessages``): their retries after a restart are skipped alike.
///
/// A message is known by the id its SDK gives it (``IngestedEvent/messageID``), else (GA4's
/// Measurement Protocol has none) by its payload as received (`raw`, which holds no field the SDK
/// stamps again per attempt). Each remembered message matches once: an app that really sends the
/// same message twice, after the retry or apart from any `503`, has both recorded. The memory is
/// bounded: at most ``limit`` messages, each for ``window``; the oldest go first, and those that
/// go before their window ends are counted (``remember(_:now:)`` returns them).
///
/// Cheap while nothing is remembered: a request's messages are keyed only when the memory holds
/// some (to find retries) or when the request is answered `503` (from its ``RetryLedger``).
final class RetryMemory: Sendable {
  /// The most messages remembered.
  static let limit = 100_000
  /// How long a message is remembered: longer than the SDKs' retry horizons after a `503`.
  static let window = TimeAmount.minutes(10)

  private struct State {
    /// Remembered messages: how many times, and until when the latest may match.
    var counts: [Int: (count: Int, until: NIODeadline)] = [:]
    /// In order of remembering, for expiry and the bound.
    var order: [(key: Int, until: NIODeadline)] = []
    var head = 0
    var remembered = 0

    /// Forgets the messages whose window ended, and the oldest past the bound; returns how many of
    /// those were pushed out by the bound before their window ended.
    @discardableResult
    mutating func dropExpired(now: NIODeadline) -> Int {
      var pushedOut = 0
      while head < order.count, order[head].until <= now || remembered > RetryMemory.limit {
        let (key, until) = order[head]
        head += 1
        if let entry = counts[key], entry.until <= until {
          remembered -= entry.count
          if until > now { pushedOut += entry.count }
          counts[key] = nil
        }
      }
      if head > 1024, head * 2 > order.count {
        order.removeFirst(head)
        head = 0
      }
      return pushedOut
    }

    mutating func add(_ keys: [Int], until: NIODeadline) {
      for key in keys {
        let count = (counts[key]?.count ?? 0) + 1
        counts[key] = (count, until)
        order.append((key, until))
        remembered += 1
      }
    }
  }

  private let state = NIOLockedValueBox(State())

  /// The key of a message with an id: its SDK's and the id.
  static func key(provider: String, id: String) -> Int {
    var hasher = Hasher()
    hasher.combine(provider)
    hasher.combine(1)
    hasher.combine(id)
    return hasher.finalize()
  }

  /// The key of a message without an id (GA4's): its SDK's, its name and its payload.
  static func key(provider: String, name: String, raw: String) -> Int {
    var hasher = Hasher()
    hasher.combine(provider)
    hasher.combine(0)
    hasher.combine(name)
    hasher.combine(raw)
    return hasher.finalize()
  }

  /// The key of `event`: its SDK's message id, else its payload.
  static func key(_ event: IngestedEvent) -> Int {
    if let id = event.messageID { return key(provider: event.provider, id: id) }
    return key(provider: event.provider, name: event.name, raw: event.raw)
  }

  /// Remembers the messages of a recording being continued, until its window ends; before any
  /// request.
  func seed(_ messages: RecordedMessages, now: NIODeadline = .now(), date: Date = Date()) {
    guard let until = messages.until, until > date, !messages.keys.isEmpty else { return }
    let deadline = now + .nanoseconds(Int64(until.timeIntervalSince(date) * 1e9))
    state.withLockedValue { $0.add(messages.keys, until: deadline) }
  }

  /// Remembers the messages of a request answered `503` after they were taken; returns how many
  /// messages, of this request or remembered before, cannot be matched by their retries: past the
  /// bound (a request with more than ``limit``, or pushing out others before their window ended).
  @discardableResult
  func remember(_ ledger: RetryLedger, now: NIODeadline = .now()) -> Int {
    let (keys, unnoted) = ledger.keys
    let until = now + Self.window
    return state.withLockedValue { state in
      state.add(keys, until: until)
      return unnoted + state.dropExpired(now: now)
    }
  }

  /// `events` without the retried ones (each matching a remembered message, which it uses up);
  /// `ledger` notes them all, so a request answered `503` again is remembered whole.
  func admit(_ events: [IngestedEvent], ledger: RetryLedger?, now: NIODeadline = .now()) -> [IngestedEvent] {
    guard let ledger else { return events }
    ledger.note(events)
    let isEmpty = state.withLockedValue { state in
      state.dropExpired(now: now)
      return state.counts.isEmpty
    }
    guard !isEmpty else { return events }
    let keys = events.map(Self.key)
    let retried = state.withLockedValue { state -> [Bool] in
      keys.map { key in
        guard let entry = state.counts[key] else { return false }
        state.counts[key] = entry.count > 1 ? (entry.count - 1, entry.until) : nil
        state.remembered -= 1
        return true
      }
    }
    let skipped = retried.filter { $0 }.count
    guard skipped > 0 else { return events }
    ledger.skip(skipped)
    return zip(events, retried).compactMap { $1 ? nil : $0 }
  }
}

/// One SDK request's messages, noted as they are delivered (on an event loop, or on the large-body
/// queue) and keyed only if the request is answered `503` (``RetryMemory/remember(_:now:)``).
///
/// It holds the delivered events themselves (their arrays, shared with the caller: no copy, no
/// work per message), up to ``heldLimit`` of them; a request with more (a bulk batch, delivered in
/// slices so that its events are never all in memory) has the rest keyed as they are delivered.
final class RetryLedger: Sendable {
  /// The most events held per request before the rest are keyed on delivery: one slice of a bulk
  /// batch (``BulkDelivery/sliceSize``). Holding 4,096 kept every record of a 4,000-event Firebase
  /// upload alive until its last slice was stored, 570 bytes an event: most of its peak memory.
  static let heldLimit = BulkDelivery.sliceSize

  private struct State {
    var held: [[IngestedEvent]] = []
    var heldCount = 0
    var keys: [Int] = []
    /// Messages past ``RetryMemory/limit``: never remembered.
    var unnoted = 0
    var skipped = 0
  }

  private let state = NIOLockedValueBox(State())
  /// The vendor exchange of a request the proxy forwards (its records' answer), `nil` for
  /// `listen`'s own.
  let exchange: WireExchange?

  init(exchange: WireExchange? = nil) { self.exchange = exchange }

  /// Notes messages delivered or skipped (at most ``RetryMemory/limit``, as many as the memory
  /// holds; the rest are counted).
  func note(_ events: [IngestedEvent]) {
    state.withLockedValue { state in
      if state.heldCount + events.count <= Self.heldLimit {
        state.held.append(events)
        state.heldCount += events.count
        return
      }
      let room = max(0, RetryMemory.limit - state.heldCount - state.keys.count)
      state.keys += events.prefix(room).map(RetryMemory.key)
      state.unnoted += max(0, events.count - room)
    }
  }

  /// Counts messages skipped as retries.
  func skip(_ count: Int) { state.withLockedValue { $0.skipped += count } }

  /// The request's message keys, and how many of its messages were past the bound.
  var keys: (keys: [Int], unnoted: Int) {
    let (held, keys, unnoted) = state.withLockedValue { ($0.held, $0.keys, $0.unnoted) }
    return (held.joined().map(RetryMemory.key) + keys, unnoted)
  }

  /// Its messages skipped as retries of messages already taken.
  var skipped: Int { state.withLockedValue { $0.skipped } }

  /// How many of its delivered events it holds (the rest are keyed).
  var heldCount: Int { state.withLockedValue { $0.heldCount } }
}
