/// Receives every dispatch of a hub, in sequence order: the attach point of the inspector.
///
/// Called once every adapter has taken the tag's calls, with the hub's lock released, one dispatch
/// at a time: on a sending thread, or on a hub queue when observers are slow (keep the work small:
/// build a value, enqueue it). Every observer sees the same order. It may call the hub; a tag sent
/// from here is queued behind the one being observed.
public protocol HubObserver: AnyObject, Sendable {
  /// One tag has been handled by every provider.
  func hubDidDispatch(_ dispatch: Dispatch)
}

/// An observer that forwards to a closure.
public final class ClosureObserver: HubObserver {
  private let body: @Sendable (Dispatch) -> Void

  /// An observer calling `body` for each dispatch.
  public init(_ body: @escaping @Sendable (Dispatch) -> Void) { self.body = body }

  public func hubDidDispatch(_ dispatch: Dispatch) { body(dispatch) }
}
