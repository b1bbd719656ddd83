import Foundation

/// Why a provider received nothing.
public enum BlockReason: String, Sendable, Hashable {
  /// The provider is switched off (build, environment or at runtime).
  case disabled
  /// The user has not consented to the provider or its category.
  case consent
}

/// What happened to one tag at one provider.
public enum OutcomeStatus: Sendable, Hashable {
  /// The mapping returned calls and the adapter took them all.
  case sent
  /// The mapping returned no call: the provider ignores this tag.
  case dropped
  /// The provider was not asked: disabled or without consent.
  case blocked(BlockReason)
  /// The adapter threw while delivering a call.
  case failed(String)

}

/// One provider's outcome for one tag: status, the exact calls it was given and the rules those
/// calls break.
public struct ProviderOutcome: Sendable, Hashable {
  public var provider: ProviderID
  public var status: OutcomeStatus
  /// The calls handed to the adapter (empty unless `sent` or `failed`).
  public var calls: [CallDescription]
  /// The provider's documented rules the calls break.
  public var violations: [RuleViolation]

  /// An outcome.
  @inlinable
  public init(
    provider: ProviderID, status: OutcomeStatus, calls: [CallDescription] = [],
    violations: [RuleViolation] = []
  ) {
    self.provider = provider
    self.status = status
    self.calls = calls
    self.violations = violations
  }
}

/// The hub's context as recorded with a dispatch: plain names, no app types.
public struct ContextSnapshot: Sendable, Hashable {
  /// The current screen's name.
  public var screen: String?
  /// Screen names, oldest first, the current one last.
  public var history: [String]
  /// The active session.
  public var session: Session?
  /// Names of running timed events.
  public var timedEvents: [String]

  /// A snapshot.
  @inlinable
  public init(
    screen: String? = nil, history: [String] = [], session: Session? = nil, timedEvents: [String] = []
  ) {
    self.screen = screen
    self.history = history
    self.session = session
    self.timedEvents = timedEvents
  }
}

/// A problem the hub found with a request it could not honour as asked; reported to observers
/// rather than thrown at the app.
public struct HubIssue: Sendable, Hashable {
  /// Stable identifiers.
  public enum Code: String, Sendable, Hashable {
    /// `stop`/`cancel` of a timed event that is not running: nothing is sent.
    case timedEventNotStarted
    /// `start` of a timed event already running: the timer restarts.
    case timedEventRestarted
    /// `updateSession`/`endSession` without an active session: nothing is sent.
    case noActiveSession
    /// A property value JSON cannot represent (NaN, infinity); it is recorded as `null`.
    case unrepresentableValue
  }

  public var code: Code
  /// A sentence naming the tag and the value.
  public var message: String

  /// An issue.
  @inlinable
  public init(code: Code, message: String) {
    self.code = code
    self.message = message
  }
}

/// Everything that happened for one tag: the tag, the context it was sent in, every provider's
/// outcome and any issue. Observers receive one per tag, in order.
public struct Dispatch: Sendable, Hashable {
  /// Position in the hub's sequence, from 1.
  public var seq: UInt64
  /// When the hub received the tag.
  public var time: Date
  public var kind: TagKind
  public var name: String
  public var properties: Properties
  public var eventType: EventType
  public var context: ContextSnapshot
  /// One outcome per registered provider, in registration order; empty when the hub sent nothing.
  public var outcomes: [ProviderOutcome]
  public var issues: [HubIssue]

  /// A dispatch.
  @inlinable
  public init(
    seq: UInt64, time: Date, kind: TagKind, name: String, properties: Properties = [:],
    eventType: EventType? = nil, context: ContextSnapshot = ContextSnapshot(),
    outcomes: [ProviderOutcome] = [], issues: [HubIssue] = []
  ) {
    self.seq = seq
    self.time = time
    self.kind = kind
    self.name = name
    self.properties = properties
    self.eventType = eventType ?? kind.defaultEventType
    self.context = context
    self.outcomes = outcomes
    self.issues = issues
  }

  /// The outcome for `provider`, if it was registered.
  public func outcome(for provider: ProviderID) -> ProviderOutcome? {
    outcomes.first { $0.provider == provider }
  }
}
