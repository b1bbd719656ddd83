/// Receives every dispatch of a hub, in sequence order: the attach point of the inspector.
///
/// Called on the sending thread while the hub holds its lock, so keep the work small (build a
/// value, enqueue it) and never call back into the hub.
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
