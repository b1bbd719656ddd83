import AnalyticsHub
import Foundation

/// Passes the first `limit` dispatches on to its observers and ignores the rest, so `--count`
/// gives exactly that many records even when a simulator step sends several tags.
public final class DispatchGate: HubObserver, @unchecked Sendable {
  private let limit: Int
  private let observers: [any HubObserver]
  private let lock = NSLock()
  private var passed = 0

  /// A gate passing `limit` dispatches to `observers`.
  public init(limit: Int, observers: [any HubObserver]) {
    self.limit = limit
    self.observers = observers
  }

  /// Whether `limit` dispatches went through.
  public var isFull: Bool { count >= limit }

  /// Dispatches passed on so far.
  public var count: Int { lock.withLock { passed } }

  public func hubDidDispatch(_ dispatch: Dispatch) {
    let pass = lock.withLock { () -> Bool in
      guard passed < limit else { return false }
      passed += 1
      return true
    }
    guard pass else { return }
    for observer in observers { observer.hubDidDispatch(dispatch) }
  }
}
