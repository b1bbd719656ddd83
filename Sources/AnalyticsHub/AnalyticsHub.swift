import Foundation

/// The one place an app sends its tags to.
///
/// The hub keeps the context (screen history, session, user, timed events, consent), hands every
/// tag to each registered provider's pure mapping, delivers the resulting calls to the provider's
/// SDK adapter and tells observers what happened at every provider: sent (with the calls), dropped,
/// blocked (with the reason) or failed.
///
/// `send` may be called from any thread. Tags are handled one at a time in the order the hub
/// receives them, so each caller's order is preserved and observers see one total order.
public final class AnalyticsHub<T: Taxonomy>: AnalyticsTracking, @unchecked Sendable {
  /// The hub's configuration.
  public let configuration: HubConfiguration
  @usableFromInline let state: Locked<HubState<T>>

  /// A hub with providers; throws ``HubError/duplicateProvider(_:)`` if two share an identifier.
  public init(configuration: HubConfiguration = HubConfiguration(), providers: ProviderSet<T> = []) throws {
    self.configuration = configuration
    state = Locked(
      HubState(context: HubContext(consent: ConsentState(defaultGranted: configuration.defaultConsent))))
    for provider in providers.providers { try register(provider) }
  }

  // MARK: Providers

  /// Registers a provider and runs its adapter's one-time setup.
  ///
  /// - Throws: ``HubError/duplicateProvider(_:)`` when the identifier is taken.
  public func register(_ provider: Provider<T>) throws {
    try state.withLock { state in
      guard !state.providers.contains(where: { $0.provider.id == provider.id }) else {
        throw HubError.duplicateProvider(provider.id)
      }
      state.providers.append(RegisteredProvider(provider: provider, enabled: provider.initiallyEnabled))
    }
    provider.setup()
  }

  /// Removes a provider; later tags no longer reach it.
  public func unregister(_ id: ProviderID) throws {
    try state.withLock { state in
      guard let index = state.providers.firstIndex(where: { $0.provider.id == id }) else {
        throw HubError.unknownProvider(id)
      }
      state.providers.remove(at: index)
    }
  }

  /// Switches a provider on or off at runtime; a disabled provider's outcome is `blocked(disabled)`.
  public func setEnabled(_ enabled: Bool, for id: ProviderID) throws {
    try state.withLock { state in
      guard let index = state.providers.firstIndex(where: { $0.provider.id == id }) else {
        throw HubError.unknownProvider(id)
      }
      state.providers[index].enabled = enabled
    }
  }

  /// The registered providers' identifiers, in registration order.
  public var providerIDs: [ProviderID] { state.withLock { $0.providers.map(\.provider.id) } }

  /// Whether a registered provider is enabled (`nil` if it is not registered).
  public func isEnabled(_ id: ProviderID) -> Bool? {
    state.withLock { $0.providers.first { $0.provider.id == id }?.enabled }
  }

  // MARK: Observers

  /// Adds an observer; it receives every later dispatch.
  public func addObserver(_ observer: some HubObserver) {
    state.withLock { $0.observers.append(observer) }
  }

  /// Removes an observer added before.
  public func removeObserver(_ observer: some HubObserver) {
    state.withLock { state in state.observers.removeAll { $0 === observer } }
  }

  /// A copy of the current context.
  public var context: HubContext<T> { state.withLock { $0.context } }

  // MARK: Tags

  /// Sends a screen tag; it becomes the current screen and enters the history.
  public func send(screen: T.Screen) {
    perform { state, _ in
      state.context.history.append(screen)
      if state.context.history.count > configuration.historyLimit {
        state.context.history.removeFirst(state.context.history.count - configuration.historyLimit)
      }
      return .send(.screen(screen))
    }
  }

  /// Sends a user action tag.
  @inlinable
  public func send(userAction: T.UserAction) { perform { _, _ in .send(.userAction(userAction)) } }

  /// Sends an event tag (something that happened independently of the user).
  @inlinable
  public func send(event: T.Event) { perform { _, _ in .send(.event(event)) } }

  /// Sends a state / user property tag.
  @inlinable
  public func send(state tag: T.State) { perform { _, _ in .send(.state(tag)) } }

  /// Starts a timed event; starting one already running restarts it (reported as an issue).
  public func start(timedEvent: T.TimedEvent) {
    perform { state, clock in
      var issues: [HubIssue] = []
      if state.timerStarts[timedEvent.name] != nil {
        issues.append(
          HubIssue(
            code: .timedEventRestarted,
            message: "timed event '\(timedEvent.name)' was already running; it restarts now"))
      }
      state.timerStarts[timedEvent.name] = clock.uptimeNanoseconds()
      state.context.timedEvents[timedEvent.name] = clock.now()
      return .send(.timedStart(timedEvent), issues: issues)
    }
  }

  /// Stops a running timed event and sends it with its measured duration. Stopping one that is
  /// not running sends nothing and reports ``HubIssue/Code/timedEventNotStarted``.
  public func stop(timedEvent: T.TimedEvent) { finish(timedEvent, cancelled: false) }

  /// Cancels a running timed event (recorded as a stop with `cancelled: true`).
  public func cancel(timedEvent: T.TimedEvent) { finish(timedEvent, cancelled: true) }

  private func finish(_ timedEvent: T.TimedEvent, cancelled: Bool) {
    perform { state, clock in
      guard let started = state.timerStarts.removeValue(forKey: timedEvent.name) else {
        let verb = cancelled ? "cancel" : "stop"
        return .report(
          kind: .timedStop, name: timedEvent.name, properties: timedEvent.properties,
          issue: HubIssue(
            code: .timedEventNotStarted,
            message: "\(verb) of timed event '\(timedEvent.name)' that was never started; nothing was sent"))
      }
      state.context.timedEvents[timedEvent.name] = nil
      let duration = Double(clock.uptimeNanoseconds() &- started) / 1_000_000_000
      return .send(
        cancelled ? .timedCancel(timedEvent, duration: duration) : .timedStop(timedEvent, duration: duration))
    }
  }

  // MARK: Sessions and users

  /// Starts a session, ending the active one first. The session is authenticated when `user` (or
  /// the already identified user) is given.
  public func startSession(user: AnalyticsUser? = nil, properties: Properties = [:]) {
    perform { state, _ in
      guard let session = state.context.session else { return .none }
      state.context.session = nil
      return .send(.sessionEnd(session))
    }
    perform { state, clock in
      if let user { state.context.user = user }
      let session = Session(
        id: configuration.makeSessionID(), user: state.context.user, properties: properties,
        startedAt: clock.now())
      state.context.session = session
      return .send(.sessionStart(session))
    }
  }

  /// Merges properties into the active session (accessibility settings changed…).
  public func updateSession(properties: Properties) {
    perform { state, _ in
      guard var session = state.context.session else {
        return .report(
          kind: .sessionUpdate, name: "session", properties: properties, issue: Self.noSession("update"))
      }
      session.properties = session.properties.merging(properties)
      state.context.session = session
      return .send(.sessionUpdate(session))
    }
  }

  /// Ends the active session.
  public func endSession() {
    perform { state, _ in
      guard let session = state.context.session else {
        return .report(kind: .sessionEnd, name: "session", properties: [:], issue: Self.noSession("end"))
      }
      state.context.session = nil
      return .send(.sessionEnd(session))
    }
  }

  /// Associates a user (login); the active session becomes authenticated.
  public func identify(_ user: AnalyticsUser) {
    perform { state, _ in
      state.context.user = user
      state.context.session?.user = user
      return .send(.identify(user))
    }
  }

  /// Disassociates the user (logout); the active session becomes unauthenticated.
  public func reset() {
    perform { state, _ in
      state.context.user = nil
      state.context.session?.user = nil
      return .send(.reset)
    }
  }

  // MARK: Consent

  /// Records a consent decision. Providers without consent receive nothing from the next tag on
  /// (their outcome is `blocked(consent)`); the consent tag itself reaches every enabled provider so
  /// each can tell its SDK.
  public func setConsent(_ granted: Bool, for scope: ConsentScope) {
    perform { state, _ in
      let change = ConsentChange(scope: scope, granted: granted)
      state.context.consent.apply(change)
      state.refreshConsent()
      return .send(.consent(change))
    }
  }

  // MARK: Dispatching

  private static func noSession(_ verb: String) -> HubIssue {
    HubIssue(code: .noActiveSession, message: "\(verb) of a session while none is active; nothing was sent")
  }

  @inlinable
  func perform(_ step: (inout HubState<T>, HubClock) -> Step<T>) {
    let clock = configuration.clock
    state.withLock { state in
      switch step(&state, clock) {
      case .none:
        return
      case .send(let tag, let issues):
        dispatch(tag, issues: issues, state: &state)
      case .report(let kind, let name, let properties, let issue):
        let seq = state.takeSeq()
        guard !state.observers.isEmpty else { return }
        let dispatch = Dispatch(
          seq: seq, time: clock.now(), kind: kind, name: name, properties: properties,
          context: state.snapshot(), issues: [issue])
        for observer in state.observers { observer.hubDidDispatch(dispatch) }
      }
    }
  }

  @inlinable
  func dispatch(_ tag: Tag<T>, issues: [HubIssue], state: inout HubState<T>) {
    let seq = state.takeSeq()
    let observing = !state.observers.isEmpty
    let options = EvaluationOptions(
      checkRules: observing && configuration.checksProviderRules, describeCalls: observing)
    var outcomes: [ProviderOutcome] = []
    if observing { outcomes.reserveCapacity(state.providers.count) }
    let bypassesConsent = tag.kind == .consent
    let context = state.context
    for index in state.providers.indices {
      let id = state.providers[index].provider.id
      let outcome: ProviderOutcome
      if !state.providers[index].enabled {
        guard observing else { continue }
        outcome = ProviderOutcome(provider: id, status: .blocked(.disabled))
      } else if !bypassesConsent, !state.providers[index].consented {
        guard observing else { continue }
        outcome = ProviderOutcome(provider: id, status: .blocked(.consent))
      } else {
        let evaluation = state.providers[index].provider.evaluate(tag, context, options)
        guard observing else { continue }
        outcome = ProviderOutcome(
          provider: id, status: evaluation.status, calls: evaluation.calls, violations: evaluation.violations)
      }
      outcomes.append(outcome)
    }
    guard observing else { return }
    let properties = tag.properties
    var allIssues = issues
    if let path = properties.firstUnrepresentablePath {
      allIssues.append(
        HubIssue(
          code: .unrepresentableValue,
          message: "\(tag.name): property '\(path)' is not a finite number; it is recorded as null"))
    }
    let dispatch = Dispatch(
      seq: seq, time: configuration.clock.now(), kind: tag.kind, name: tag.name, properties: properties,
      eventType: tag.eventType, context: state.snapshot(), outcomes: outcomes, issues: allIssues)
    for observer in state.observers { observer.hubDidDispatch(dispatch) }
  }
}

@usableFromInline
struct RegisteredProvider<T: Taxonomy> {
  @usableFromInline var provider: Provider<T>
  @usableFromInline var enabled: Bool
  /// Consent resolved for this provider; refreshed whenever decisions or providers change.
  @usableFromInline var consented = true
}

@usableFromInline
struct HubState<T: Taxonomy> {
  @usableFromInline var context: HubContext<T> {
    didSet { cachedSnapshot = nil }
  }
  @usableFromInline var providers: [RegisteredProvider<T>] = [] {
    didSet { refreshConsent() }
  }
  @usableFromInline var observers: [any HubObserver] = []
  @usableFromInline var timerStarts: [String: UInt64] = [:]
  @usableFromInline var nextSeq: UInt64 = 1
  @usableFromInline var cachedSnapshot: ContextSnapshot?

  init(context: HubContext<T>) { self.context = context }

  @inlinable
  mutating func takeSeq() -> UInt64 {
    defer { nextSeq += 1 }
    return nextSeq
  }

  /// The context snapshot, rebuilt only after the context changed.
  @inlinable
  mutating func snapshot() -> ContextSnapshot {
    if let cachedSnapshot { return cachedSnapshot }
    let snapshot = context.snapshot
    cachedSnapshot = snapshot
    return snapshot
  }

  @usableFromInline
  mutating func refreshConsent() {
    let consent = context.consent
    for index in providers.indices {
      let provider = providers[index].provider
      let granted = consent.isGranted(provider: provider.id, category: provider.category)
      if providers[index].consented != granted { providers[index].consented = granted }
    }
  }
}

@usableFromInline
enum Step<T: Taxonomy> {
  case none
  case send(Tag<T>, issues: [HubIssue] = [])
  case report(kind: TagKind, name: String, properties: Properties, issue: HubIssue)
}
