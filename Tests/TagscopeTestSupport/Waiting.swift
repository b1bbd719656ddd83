import Foundation

/// Waits until `condition` holds; returns whether it does. The deadline only ends a wait that
/// would never end (a bug): no test waits for time to pass.
@discardableResult
public func eventually(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now() + timeout
  while !condition() {
    if DispatchTime.now() >= deadline { return condition() }
    usleep(1_000)
  }
  return true
}

/// Values appended from any thread, read back in order.
public final class LockedArray<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Element] = []

  /// An empty array.
  public init() {}

  /// Appends `element`.
  public func append(_ element: Element) { lock.withLock { stored.append(element) } }

  /// Everything appended so far, in order.
  public var all: [Element] { lock.withLock { stored } }
}
