import AnalyticsHub
import Foundation

/// A tracker that keeps every tag it is given, for a feature module's unit tests: the feature is
/// given a tracker of its own taxonomy, so its tests need neither the app nor a hub.
///
/// ```swift
/// let tracker = RecordingTracker<PlaybackTaxonomy>()
/// PlayerModel(tracker: tracker).play(episode: "42")
/// XCTAssertEqual(tracker.sent, [.userAction(.play(episode: "42"))])
/// XCTAssertEqual(tracker.names, ["play"])
/// ```
public final class RecordingTracker<T: Taxonomy>: AnalyticsTracking, @unchecked Sendable {
  /// One thing the tracker was given.
  public enum Sent: Sendable {
    /// `send(screen:)`.
    case screen(T.Screen)
    /// `send(userAction:)`.
    case userAction(T.UserAction)
    /// `send(event:)`.
    case event(T.Event)
    /// `send(state:)`.
    case state(T.State)
    /// `start(timedEvent:)`.
    case start(T.TimedEvent)
    /// `stop(timedEvent:)`.
    case stop(T.TimedEvent)
    /// `cancel(timedEvent:)`.
    case cancel(T.TimedEvent)

    /// The tag's name.
    public var name: String {
      switch self {
      case .screen(let tag): return tag.name
      case .userAction(let tag): return tag.name
      case .event(let tag): return tag.name
      case .state(let tag): return tag.name
      case .start(let tag), .stop(let tag), .cancel(let tag): return tag.name
      }
    }

    /// The tag's properties.
    public var properties: Properties {
      switch self {
      case .screen(let tag): return tag.properties
      case .userAction(let tag): return tag.properties
      case .event(let tag): return tag.properties
      case .state(let tag): return tag.properties
      case .start(let tag), .stop(let tag), .cancel(let tag): return tag.properties
      }
    }
  }

  private let lock = NSLock()
  private var received: [Sent] = []

  /// An empty tracker.
  public init() {}

  /// Everything given so far, in order.
  public var sent: [Sent] { lock.withLock { received } }

  /// The name of every tag given so far, in order.
  public var names: [String] { sent.map(\.name) }

  /// Forgets what was given so far.
  public func removeAll() { lock.withLock { received.removeAll() } }

  public func send(screen: T.Screen) { record(.screen(screen)) }
  public func send(userAction: T.UserAction) { record(.userAction(userAction)) }
  public func send(event: T.Event) { record(.event(event)) }
  public func send(state: T.State) { record(.state(state)) }
  public func start(timedEvent: T.TimedEvent) { record(.start(timedEvent)) }
  public func stop(timedEvent: T.TimedEvent) { record(.stop(timedEvent)) }
  public func cancel(timedEvent: T.TimedEvent) { record(.cancel(timedEvent)) }

  private func record(_ tag: Sent) { lock.withLock { received.append(tag) } }
}

extension RecordingTracker.Sent: Equatable
where
  T.Screen: Equatable, T.UserAction: Equatable, T.Event: Equatable, T.State: Equatable,
  T.TimedEvent: Equatable
{}

extension RecordingTracker.Sent: Hashable
where T.Screen: Hashable, T.UserAction: Hashable, T.Event: Hashable, T.State: Hashable, T.TimedEvent: Hashable
{}
