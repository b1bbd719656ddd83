import Foundation

/// Everything the hub hands to a provider's mapping: the app's tags and the hub's own lifecycle
/// tags (sessions, identity, consent, timed event boundaries).
public enum Tag<T: Taxonomy>: Sendable {
  case screen(T.Screen)
  case userAction(T.UserAction)
  case event(T.Event)
  case state(T.State)
  /// A timed event started.
  case timedStart(T.TimedEvent)
  /// A timed event stopped after `duration` seconds.
  case timedStop(T.TimedEvent, duration: TimeInterval)
  /// A timed event was cancelled after `duration` seconds (recorded as `timedStop`, `cancelled: true`).
  case timedCancel(T.TimedEvent, duration: TimeInterval)
  case sessionStart(Session)
  case sessionUpdate(Session)
  case sessionEnd(Session)
  /// A user was associated with the current session (login).
  case identify(AnalyticsUser)
  /// The user was disassociated (logout).
  case reset
  /// A consent decision changed.
  case consent(ConsentChange)

  /// The recording kind of this tag.
  @inlinable
  public var kind: TagKind {
    switch self {
    case .screen: return .screen
    case .userAction: return .userAction
    case .event: return .event
    case .state: return .state
    case .timedStart: return .timedStart
    case .timedStop, .timedCancel: return .timedStop
    case .sessionStart: return .sessionStart
    case .sessionUpdate: return .sessionUpdate
    case .sessionEnd: return .sessionEnd
    case .identify: return .identify
    case .reset: return .reset
    case .consent: return .consent
    }
  }

  /// The tag's name: the app tag's name, or the lifecycle tag's fixed name (`session`, `user`, …).
  @inlinable
  public var name: String {
    switch self {
    case .screen(let tag): return tag.name
    case .userAction(let tag): return tag.name
    case .event(let tag): return tag.name
    case .state(let tag): return tag.name
    case .timedStart(let tag), .timedStop(let tag, _), .timedCancel(let tag, _): return tag.name
    case .sessionStart, .sessionUpdate, .sessionEnd: return "session"
    case .identify: return "identify"
    case .reset: return "reset"
    case .consent: return "consent"
    }
  }

  /// The tag's properties; lifecycle tags describe themselves (session properties, duration…).
  @inlinable
  public var properties: Properties {
    switch self {
    case .screen(let tag): return tag.properties
    case .userAction(let tag): return tag.properties
    case .event(let tag): return tag.properties
    case .state(let tag): return tag.properties
    case .timedStart(let tag): return tag.properties
    case .timedStop(let tag, let duration):
      return tag.properties.merging(["duration": .double(Self.rounded(duration))])
    case .timedCancel(let tag, let duration):
      return tag.properties.merging(["duration": .double(Self.rounded(duration)), "cancelled": true])
    case .sessionStart(let session), .sessionUpdate(let session), .sessionEnd(let session):
      return session.properties
    case .identify(let user): return user.traits
    case .reset: return [:]
    case .consent(let change): return change.properties
    }
  }

  /// The FPTI event type: the tag's own, or its kind's default.
  @inlinable
  public var eventType: EventType {
    let own: EventType?
    switch self {
    case .screen(let tag): own = tag.eventType
    case .userAction(let tag): own = tag.eventType
    case .event(let tag): own = tag.eventType
    case .state(let tag): own = tag.eventType
    case .timedStart(let tag), .timedStop(let tag, _), .timedCancel(let tag, _): own = tag.eventType
    default: own = nil
    }
    return own ?? kind.defaultEventType
  }

  /// Kind, name, properties and event type read in one pass over the tag (the hub records all
  /// four for an observed dispatch; each accessor alone would copy the tag's payload again).
  @inlinable
  var recorded: (kind: TagKind, name: String, properties: Properties, eventType: EventType) {
    switch self {
    case .screen(let tag):
      return (.screen, tag.name, tag.properties, tag.eventType ?? TagKind.screen.defaultEventType)
    case .userAction(let tag):
      return (.userAction, tag.name, tag.properties, tag.eventType ?? TagKind.userAction.defaultEventType)
    case .event(let tag):
      return (.event, tag.name, tag.properties, tag.eventType ?? TagKind.event.defaultEventType)
    case .state(let tag):
      return (.state, tag.name, tag.properties, tag.eventType ?? TagKind.state.defaultEventType)
    default:
      return (kind, name, properties, eventType)
    }
  }

  @usableFromInline
  static func rounded(_ duration: TimeInterval) -> Double {
    (duration * 1000).rounded() / 1000
  }
}
