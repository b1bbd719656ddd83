import TagscopeRecording

/// The state of the inspected app as of one record: what the Screens, Session and Providers panes
/// show for the selected event, in live and replay alike.
public struct TimelineState: Sendable, Hashable {
  /// The record this state is as of (`nil`: before the first record).
  public var index: Int?
  /// The device or connection it is the state of (`tagscope listen`); `nil` for a recording with
  /// one app and no sources. Each source's state is folded from its own records only.
  public var source: String?
  /// The current screen.
  public var screen: String?
  /// Screen names, oldest first, the current one last.
  public var history: [String]
  /// The active session (its `user` is the identified user).
  public var session: RecordSession?
  /// Running timed events.
  public var timedEvents: [String]
  /// Consent decisions recorded so far, in the order first decided (latest value of each scope).
  public var consent: [ConsentDecision]
  /// Every provider seen so far, in the order first seen, with its state after its latest output.
  public var providers: [ProviderState]
  /// What of the screens and session Tagscope inferred rather than the app stated, as `listen`
  /// marks an SDK's records (`context.inferred`): `screen`, `history`, `session`, `anonymous`.
  public var inferred: Set<String> = []

  /// A state.
  public init(
    index: Int? = nil, screen: String? = nil, history: [String] = [], session: RecordSession? = nil,
    timedEvents: [String] = [], consent: [ConsentDecision] = [], providers: [ProviderState] = []
  ) {
    self.index = index
    self.screen = screen
    self.history = history
    self.session = session
    self.timedEvents = timedEvents
    self.consent = consent
    self.providers = providers
  }

  /// The state of `provider`, if it was seen.
  public func provider(_ name: String) -> ProviderState? { providers.first { $0.provider == name } }
}

/// A consent decision as recorded by a `consent` record (`scope` is `category:marketing` or
/// `provider:braze`).
public struct ConsentDecision: Sendable, Hashable {
  /// What the decision applies to.
  public var scope: String
  /// Opt-in (`true`) or opt-out.
  public var granted: Bool
  /// The record that made the decision.
  public var index: Int

  /// A decision.
  public init(scope: String, granted: Bool, index: Int) {
    self.scope = scope
    self.granted = granted
    self.index = index
  }
}

/// What the timeline knows of a provider as of a record, from its latest output.
public struct ProviderState: Sendable, Hashable {
  /// Provider identifier.
  public var provider: String
  /// `false` when its latest output was `blocked` because the provider is disabled.
  public var enabled: Bool
  /// `false` when its latest output (other than for a consent tag, which reaches every enabled
  /// provider) was `blocked` for want of consent.
  public var consented: Bool
  /// The status of its latest output.
  public var lastStatus: OutputStatus?
  /// The record of its latest output.
  public var lastIndex: Int?

  /// A provider state.
  public init(
    provider: String, enabled: Bool = true, consented: Bool = true, lastStatus: OutputStatus? = nil,
    lastIndex: Int? = nil
  ) {
    self.provider = provider
    self.enabled = enabled
    self.consented = consented
    self.lastStatus = lastStatus
    self.lastIndex = lastIndex
  }

  /// Whether the provider currently receives nothing (disabled or no consent).
  public var isBlocked: Bool { !enabled || !consented }
}

/// One source (device or connection) of a timeline, from the index.
public struct SourceStatistics: Sendable, Hashable {
  /// Its name (`Podcasts@iPhone 15`, `segment@127.0.0.1`).
  public var name: String
  /// Its records.
  public var records: Int
  /// Its records with rule or plan violations.
  public var withViolations: Int
  /// Its first and latest record (timeline positions).
  public var firstIndex: Int
  public var lastIndex: Int
  /// Its latest record's time, milliseconds since 1970.
  public var lastTimeMilliseconds: Int64
  /// Its records in the last ``window`` seconds before the newest record of all.
  public var recentRecords: Int
  public var window: Double

  /// Statistics of a source.
  public init(
    name: String, records: Int, withViolations: Int, firstIndex: Int, lastIndex: Int,
    lastTimeMilliseconds: Int64, recentRecords: Int, window: Double
  ) {
    self.name = name
    self.records = records
    self.withViolations = withViolations
    self.firstIndex = firstIndex
    self.lastIndex = lastIndex
    self.lastTimeMilliseconds = lastTimeMilliseconds
    self.recentRecords = recentRecords
    self.window = window
  }

  /// Records a second over the window.
  public var rate: Double { window > 0 ? Double(recentRecords) / window : 0 }
}
