import Foundation

/// A mutex-protected value with a condition to wait on (Foundation's `NSCondition`, available on
/// every platform the hub targets).
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
  @usableFromInline let condition = NSCondition()
  @exclusivity(unchecked) @usableFromInline var value: Value

  init(_ value: Value) { self.value = value }

  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    condition.lock()
    defer { condition.unlock() }
    return try body(&value)
  }

  /// Waits, the lock released meanwhile, until `done` holds; `done` is evaluated with the lock held.
  func wait(until done: (inout Value) -> Bool) {
    condition.lock()
    defer { condition.unlock() }
    while !done(&value) { condition.wait() }
  }

  /// Wakes every thread in ``wait(until:)``; call it with the lock held.
  @usableFromInline
  func wakeWaiters() { condition.broadcast() }
}
