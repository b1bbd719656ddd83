/// What view models depend on: the sending half of a hub, so tests and previews can substitute
/// another tracker and two trackers can be combined.
public protocol AnalyticsTracking<T>: Sendable {
  /// The app's taxonomy.
  associatedtype T: Taxonomy
  /// Sends a screen tag.
  func send(screen: T.Screen)
  /// Sends a user action tag.
  func send(userAction: T.UserAction)
  /// Sends an event tag.
  func send(event: T.Event)
  /// Sends a state tag.
  func send(state: T.State)
  /// Starts a timed event.
  func start(timedEvent: T.TimedEvent)
  /// Stops a timed event.
  func stop(timedEvent: T.TimedEvent)
  /// Cancels a timed event.
  func cancel(timedEvent: T.TimedEvent)
  /// Waits until every tag sent so far has been delivered (a tracker that delivers as it is called
  /// has nothing to wait for).
  func flush()
}

extension AnalyticsTracking {
  public func flush() {}

  /// A tracker that forwards every tag to this one, then to `other` (seed 004's `combined(with:)`).
  public func combined<Other: AnalyticsTracking>(with other: Other) -> CombinedTracker<Self, Other>
  where Other.T == T {
    CombinedTracker(first: self, second: other)
  }
}

/// Two trackers behind one: every tag goes to the first, then to the second.
public struct CombinedTracker<First: AnalyticsTracking, Second: AnalyticsTracking>: AnalyticsTracking
where First.T == Second.T {
  public typealias T = First.T
  /// The first tracker.
  public let first: First
  /// The second tracker.
  public let second: Second

  public func send(screen: T.Screen) {
    first.send(screen: screen)
    second.send(screen: screen)
  }

  public func send(userAction: T.UserAction) {
    first.send(userAction: userAction)
    second.send(userAction: userAction)
  }

  public func send(event: T.Event) {
    first.send(event: event)
    second.send(event: event)
  }

  public func send(state: T.State) {
    first.send(state: state)
    second.send(state: state)
  }

  public func start(timedEvent: T.TimedEvent) {
    first.start(timedEvent: timedEvent)
    second.start(timedEvent: timedEvent)
  }

  public func stop(timedEvent: T.TimedEvent) {
    first.stop(timedEvent: timedEvent)
    second.stop(timedEvent: timedEvent)
  }

  public func cancel(timedEvent: T.TimedEvent) {
    first.cancel(timedEvent: timedEvent)
    second.cancel(timedEvent: timedEvent)
  }

  public func flush() {
    first.flush()
    second.flush()
  }
}
