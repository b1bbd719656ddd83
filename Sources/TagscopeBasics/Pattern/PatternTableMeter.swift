import Foundation

/// Bytes of lookup tables (lazy DFA states, closure chunks, scalar rows) held by the patterns of
/// one owner, with a limit: a pattern whose tables would pass it goes on with fewer — its DFA
/// starts over or it steps thread by thread, its closures walked instead of looked up — so the
/// limit bounds memory and never correctness. ``PatternCache`` gives its patterns one.
final class PatternTableMeter: @unchecked Sendable {
  /// The most bytes held at once.
  let limit: Int
  private let lock = NSLock()
  // Guarded by `lock`.
  private var used = 0

  init(limit: Int) { self.limit = limit }

  /// Bytes held now.
  var bytes: Int { lock.withLock { used } }

  /// Takes `bytes` when that stays within the limit; `false` (nothing taken) otherwise.
  func reserve(_ bytes: Int) -> Bool {
    lock.withLock {
      guard used + bytes <= limit else { return false }
      used += bytes
      return true
    }
  }

  /// Takes `bytes` whatever the limit (a table every pattern needs, a few words).
  func take(_ bytes: Int) { lock.withLock { used += bytes } }

  /// Gives back `bytes` taken before.
  func release(_ bytes: Int) {
    guard bytes > 0 else { return }
    lock.withLock { used -= bytes }
  }
}
