import AnalyticsHub

/// The records the UI shows, by position (0-based, in arrival order). The UI depends only on this,
/// so the inspector's timeline, a recording or the demo's live hub plug in through one adapter.
///
/// Implementations are append-only: the record at a position never changes once `count` covers it.
/// Reads must be cheap: a frame reads one summary per visible row and one state.
public protocol TimelineSource: AnyObject, Sendable {
  /// How many records exist now.
  var count: Int { get }
  /// The fields of the event list, for the record at `index`.
  func summary(at index: Int) -> EventSummary
  /// The full record at `index`.
  func record(at index: Int) -> RecordView
  /// Screens, session, timers and consent as of (just after) the record at `index`.
  func state(at index: Int) -> StateView
  /// The app name, for the header.
  var appName: String { get }
  /// Where records come from (`live demo`, a file name), for the header.
  var sourceLabel: String { get }
  /// Tagging-plan coverage for the header (`plan Podcasts v3: 34/41 covered`), when a plan is loaded.
  var planSummary: String? { get }
  /// Records lost upstream (backlog overflow, drop markers), shown in the header when not zero.
  var dropped: Int { get }
  /// Whether records are still being loaded (a recording being indexed): the event loop then
  /// looks for new ones every 100 ms instead of waiting for a wakeup.
  var isLoading: Bool { get }
  /// The devices/connections records came from (`tagscope listen`), in order of appearance.
  var sources: [String] { get }
  /// The plan's coverage checklist (empty without a plan).
  func planChecklist() -> [String]
}

extension TimelineSource {
  public var planSummary: String? { nil }
  public var dropped: Int { 0 }
  public var isLoading: Bool { false }
  public var sources: [String] { [] }
  public func planChecklist() -> [String] { [] }

  /// The time of the record at `index`, in seconds since 1970.
  public func time(at index: Int) -> Double { summary(at: index).time }
}

/// One provider's status in a summary.
public struct EventOutput: Sendable, Hashable {
  public var provider: String
  /// `sent`, `dropped`, `blocked` or `failed`.
  public var status: String

  /// A summary.
  public init(provider: String, status: String) {
    self.provider = provider
    self.status = status
  }
}

/// The list fields of a record (raw, unsanitized).
public struct EventSummary: Sendable, Hashable {
  public var seq: UInt64
  /// Seconds since 1970.
  public var time: Double
  /// The tag kind (`screen`, `userAction`…).
  public var kind: String
  public var name: String
  public var outputs: [EventOutput]
  /// Rule and plan violations across all providers.
  public var violations: Int
  /// Hub issues.
  public var issues: Int
  /// The device/connection (records received by `tagscope listen`).
  public var source: String?

  /// A summary.
  public init(
    seq: UInt64, time: Double, kind: String, name: String, outputs: [EventOutput] = [],
    violations: Int = 0, issues: Int = 0, source: String? = nil
  ) {
    self.source = source
    self.seq = seq
    self.time = time
    self.kind = kind
    self.name = name
    self.outputs = outputs
    self.violations = violations
    self.issues = issues
  }
}

/// A violation attached to a provider output (a provider rule or the tagging plan).
public struct ViolationView: Sendable, Hashable {
  /// Rule identifier (`firebase.event-name-length`, `plan.missing-property`).
  public var rule: String
  public var message: String
  /// `error`, `warning`, or a provider consequence word.
  public var severity: String
  /// The offending call among the output's calls, when known.
  public var callIndex: Int?

  /// A violation.
  public init(rule: String, message: String, severity: String = "error", callIndex: Int? = nil) {
    self.rule = rule
    self.message = message
    self.severity = severity
    self.callIndex = callIndex
  }
}

/// What one provider did with a record.
public struct OutputView: Sendable, Hashable {
  public var provider: String
  /// `sent`, `dropped`, `blocked` or `failed`.
  public var status: String
  /// Why it was blocked or failed.
  public var reason: String?
  public var calls: [CallDescription]
  public var violations: [ViolationView]

  /// An output.
  public init(
    provider: String, status: String, reason: String? = nil, calls: [CallDescription] = [],
    violations: [ViolationView] = []
  ) {
    self.provider = provider
    self.status = status
    self.reason = reason
    self.calls = calls
    self.violations = violations
  }
}

/// The session as recorded.
public struct SessionView: Sendable, Hashable {
  public var id: String
  /// `authenticated` or `unauthenticated`.
  public var state: String
  public var user: String?
  public var properties: Properties

  /// A session.
  public init(id: String, state: String, user: String? = nil, properties: Properties = [:]) {
    self.id = id
    self.state = state
    self.user = user
    self.properties = properties
  }
}

/// The context recorded with a record.
public struct ContextView: Sendable, Hashable {
  public var screen: String?
  /// Oldest first.
  public var history: [String]
  public var session: SessionView?
  public var timedEvents: [String]

  /// A context.
  public init(
    screen: String? = nil, history: [String] = [], session: SessionView? = nil, timedEvents: [String] = []
  ) {
    self.screen = screen
    self.history = history
    self.session = session
    self.timedEvents = timedEvents
  }
}

/// A full record (raw, unsanitized).
public struct RecordView: Sendable, Hashable {
  public var seq: UInt64
  public var time: Double
  public var kind: String
  public var name: String
  public var properties: Properties
  public var eventType: String?
  public var context: ContextView
  public var outputs: [OutputView]
  public var issues: [String]
  /// The device or connection, for records received by `listen`.
  public var source: String?
  /// The payload as an SDK sent it, for records received by `listen`.
  public var raw: String?
  /// Fields the recording carried that tagscope does not know, kept for the detail view.
  public var extra: Properties

  /// A record.
  public init(
    seq: UInt64, time: Double, kind: String, name: String, properties: Properties = [:],
    eventType: String? = nil, context: ContextView = ContextView(), outputs: [OutputView] = [],
    issues: [String] = [], source: String? = nil, raw: String? = nil, extra: Properties = [:]
  ) {
    self.seq = seq
    self.time = time
    self.kind = kind
    self.name = name
    self.properties = properties
    self.eventType = eventType
    self.context = context
    self.outputs = outputs
    self.issues = issues
    self.source = source
    self.raw = raw
    self.extra = extra
  }

  /// The list fields of this record.
  public var summary: EventSummary {
    EventSummary(
      seq: seq, time: time, kind: kind, name: name,
      outputs: outputs.map { EventOutput(provider: $0.provider, status: $0.status) },
      violations: outputs.reduce(0) { $0 + $1.violations.count }, issues: issues.count, source: source)
  }
}

/// One consent decision in force.
public struct ConsentView: Sendable, Hashable {
  /// `category:analytics`, `provider:braze`.
  public var scope: String
  public var granted: Bool

  /// A decision.
  public init(scope: String, granted: Bool) {
    self.scope = scope
    self.granted = granted
  }
}

/// The app's state as of a record: what the Screens and Session panes show.
public struct StateView: Sendable, Hashable {
  public var context: ContextView
  /// Consent decisions in force, in the order they were made.
  public var consent: [ConsentView]

  /// A state.
  public init(context: ContextView = ContextView(), consent: [ConsentView] = []) {
    self.context = context
    self.consent = consent
  }
}
