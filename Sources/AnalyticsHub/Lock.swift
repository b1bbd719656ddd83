import Foundation

/// A mutex-protected value (Foundation's `NSLock`, available on every platform the hub targets).
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  @usableFromInline var value: Value

  init(_ value: Value) { self.value = value }

  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
