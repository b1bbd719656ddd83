import NIOConcurrencyHelpers
import NIOCore

/// The SDK messages `listen` took, then answered `503` + `Retry-After` because the disk did not
/// make them durable within the request timeout: they are still written, and the SDK sends them
/// again. A message of a later request that matches one remembered here is that retry: skipped
/// (and counted), so each message is recorded once.
///
/// A message is known by the id its SDK gives it (``IngestedEvent/messageID``), else (GA4's
/// Measurement Protocol has none) by its payload as received (`raw`, which holds no field the SDK
/// stamps again per attempt). Each remembered message matches once: an app that really sends the
/// same message twice, after the retry or apart from any `503`, has both recorded. The memory is
/// bounded: at most ``limit`` messages, each for ``window``; the oldest go first.
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

    mutating func dropExpired(now: NIODeadline) {
      while head < order.count, order[head].until <= now || remembered > RetryMemory.limit {
        let (key, until) = order[head]
        head += 1
        if let entry = counts[key], entry.until <= until {
          remembered -= entry.count
          counts[key] = nil
        }
      }
      if head > 1024, head * 2 > order.count {
        order.removeFirst(head)
        head = 0
      }
    }
  }

  private let state = NIOLockedValueBox(State())

  /// The key of `event`: its SDK's message id, else its payload.
  static func key(_ event: IngestedEvent) -> Int {
    var hasher = Hasher()
    hasher.combine(event.provider)
    if let id = event.messageID {
      hasher.combine(1)
      hasher.combine(id)
    } else {
      hasher.combine(0)
      hasher.combine(event.name)
      hasher.combine(event.raw)
    }
    return hasher.finalize()
  }

  /// Remembers the messages of a request answered `503` after they were taken.
  func remember(_ ledger: RetryLedger, now: NIODeadline = .now()) {
    let keys = ledger.keys
    guard !keys.isEmpty else { return }
    let until = now + Self.window
    state.withLockedValue { state in
      for key in keys {
        let count = (state.counts[key]?.count ?? 0) + 1
        state.counts[key] = (count, until)
        state.order.append((key, until))
        state.remembered += 1
      }
      state.dropExpired(now: now)
    }
  }

  /// `events` without the retried ones (each matching a remembered message, which it uses up);
  /// `ledger` notes the keys of both, so a request answered `503` again is remembered whole.
  func admit(_ events: [IngestedEvent], ledger: RetryLedger?, now: NIODeadline = .now()) -> [IngestedEvent] {
    guard let ledger else { return events }
    let keys = events.map(Self.key)
    let retried = state.withLockedValue { state -> [Bool] in
      state.dropExpired(now: now)
      guard !state.counts.isEmpty else { return [] }
      return keys.map { key in
        guard let entry = state.counts[key] else { return false }
        state.counts[key] = entry.count > 1 ? (entry.count - 1, entry.until) : nil
        state.remembered -= 1
        return true
      }
    }
    ledger.note(keys, skipped: retried.filter { $0 }.count)
    guard retried.contains(true) else { return events }
    return zip(events, retried).compactMap { $1 ? nil : $0 }
  }
}

/// One SDK request's messages as ``RetryMemory`` knows them: noted as they are delivered (on an
/// event loop, or on the large-body queue), read when the request is answered.
final class RetryLedger: Sendable {
  private let state = NIOLockedValueBox((keys: [Int](), skipped: 0))

  /// Notes messages delivered or skipped (at most ``RetryMemory/limit`` keys are kept).
  func note(_ keys: [Int], skipped: Int) {
    state.withLockedValue { state in
      state.keys += keys.prefix(max(0, RetryMemory.limit - state.keys.count))
      state.skipped += skipped
    }
  }

  /// The request's message keys.
  var keys: [Int] { state.withLockedValue { $0.keys } }

  /// Its messages skipped as retries of messages already taken.
  var skipped: Int { state.withLockedValue { $0.skipped } }
}
