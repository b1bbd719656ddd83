import AnalyticsHub

/// The hub's context when a record was made: `context` in the recording.
public struct RecordContext: Sendable, Hashable {
  /// The current screen (`screen`).
  public var screen: String?
  /// Screen names, oldest first, the current one last (`history`).
  public var history: [String]
  /// The active session (`session`).
  public var session: RecordSession?
  /// Names of running timed events, sorted (`timedEvents`).
  public var timedEvents: [String]
  /// Fields this version does not know, in the order read; written back as they were.
  public var extra: Properties

  /// A context.
  public init(
    screen: String? = nil, history: [String] = [], session: RecordSession? = nil, timedEvents: [String] = [],
    extra: Properties = [:]
  ) {
    self.screen = screen
    self.history = history
    self.session = session
    self.timedEvents = timedEvents
    self.extra = extra
  }
}

/// The active session as recorded: `context.session`.
public struct RecordSession: Sendable, Hashable {
  /// Session identifier (`id`).
  public var id: String
  /// `authenticated` or `unauthenticated` (`state`); other words are kept.
  public var state: String
  /// The associated user's identifier (`user`).
  public var user: String?
  /// Session properties (`properties`).
  public var properties: Properties
  /// Fields this version does not know, in the order read.
  public var extra: Properties

  /// A session.
  public init(
    id: String, state: String, user: String? = nil, properties: Properties = [:], extra: Properties = [:]
  ) {
    self.id = id
    self.state = state
    self.user = user
    self.properties = properties
    self.extra = extra
  }
}
