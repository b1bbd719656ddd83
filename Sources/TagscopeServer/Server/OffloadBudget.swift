import NIOConcurrencyHelpers

/// The bytes of request bodies handed to the large-body queue and not yet done, over all
/// connections: past ``limit`` a new large request gets `503` with `Retry-After` instead of
/// waiting there, so many clients' large bodies cannot pile up in memory.
final class OffloadBudget: Sendable {
  /// The most bytes waiting or being parsed at once (one body is always taken, however large).
  let limit: Int
  private let pending = NIOLockedValueBox(0)

  init(limit: Int) { self.limit = limit }

  /// Takes `bytes` from the budget; `false` (nothing taken) when that would pass the limit.
  func reserve(_ bytes: Int) -> Bool {
    pending.withLockedValue { pending in
      guard pending == 0 || pending + bytes <= limit else { return false }
      pending += bytes
      return true
    }
  }

  /// Gives `bytes` back once their request is done.
  func release(_ bytes: Int) { pending.withLockedValue { $0 -= bytes } }
}
