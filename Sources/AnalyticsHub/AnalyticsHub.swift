import Foundation

/// The one place an app sends its tags to.
///
/// The hub keeps the context (screen history, session, user, timed events, consent), hands every
/// tag to each registered provider's pure mapping, delivers the resulting calls to the provider's
/// SDK adapter and tells observers what happened at every provider: sent (with the calls), dropped,
/// blocked (with the reason) or failed.
///
/// `send` may be called from any thread. Tags are handled one at a time in the order the hub
/// receives them: the context changes and the mappings run in that order under the hub's lock, so
/// each caller's order is preserved. Adapters and observers are called after the lock is released,
/// each provider's adapter and the observers one call at a time in that same order, usually on the
/// sending thread. A provider whose adapter is slow is served from a hub queue instead, so it
/// neither holds back the sender nor the other providers; an adapter or observer may itself call
/// the hub. ``flush()`` waits until everything sent so far has been delivered.
public final class AnalyticsHub<T: Taxonomy>: AnalyticsTracking, @unchecked Sendable {
  /// The hub's configuration.
  public let configuration: HubConfiguration
  @usableFromInline let state: Locked<HubState<T>>
  /// Observed dispatches waiting for their observers (also reachable from the state).
  @usableFromInline let observations = ObserverLane()

  /// A hub with providers; throws ``HubError/duplicateProvider(_:)`` if two share an identifier.
  public init(configuration: HubConfiguration = HubConfiguration(), providers: ProviderSet<T> = []) throws {
    self.configuration = configuration
    state = Locked(
      HubState(
        context: HubContext(consent: ConsentState(defaultGranted: configuration.defaultConsent)),
        observations: observations))
    for provider in providers.providers { try register(provider) }
  }

  /// A hub with the providers of an array (built in a variable, say, or per build configuration);
  /// throws ``HubError/duplicateProvider(_:)`` if two share an identifier.
  public convenience init(configuration: HubConfiguration = HubConfiguration(), providers: [Provider<T>])
    throws
  {
    try self.init(configuration: configuration, providers: ProviderSet(providers))
  }

  /// Waits until every tag sent before the call has reached every adapter and observer.
  ///
  /// For tests and for shutting down (before the process exits or a recording is closed). It must
  /// not be called from an adapter or an observer, which would wait for itself.
  public func flush() {
    state.wait { state in
      if state.busyLanes == 0 { return true }
      state.flushWaiting = true
      return false
    }
  }

  // MARK: Providers

  /// Registers a provider and runs its adapter's one-time setup.
  ///
  /// - Throws: ``HubError/duplicateProvider(_:)`` when the identifier is taken.
  public func register(_ provider: Provider<T>) throws {
    let registered = RegisteredProvider(provider)
    try state.withLock { state in
      guard !state.providers.contains(where: { $0.id == provider.id }) else {
        throw HubError.duplicateProvider(provider.id)
      }
      state.providers.append(registered)
    }
    registered.lane.setup(registered.lane)
  }

  /// Removes a provider; later tags no longer reach it (calls already queued are still delivered).
  public func unregister(_ id: ProviderID) throws {
    // Released after the lock: the adapter's deinit is the app's code.
    let removed = try state.withLock { state in
      guard let index = state.providers.firstIndex(where: { $0.id == id }) else {
        throw HubError.unknownProvider(id)
      }
      let removed = state.providers.remove(at: index)
      if removed.lane.busy { state.retiredLanes.append(removed.lane) }
      return removed
    }
    withExtendedLifetime(removed) {}
  }

  /// Switches a provider on or off at runtime; a disabled provider's outcome is `blocked(disabled)`.
  public func setEnabled(_ enabled: Bool, for id: ProviderID) throws {
    try state.withLock { state in
      guard let index = state.providers.firstIndex(where: { $0.id == id }) else {
        throw HubError.unknownProvider(id)
      }
      state.providers[index].enabled = enabled
    }
  }

  /// The registered providers' identifiers, in registration order.
  public var providerIDs: [ProviderID] { state.withLock { $0.providers.map(\.id) } }

  /// Whether a registered provider is enabled (`nil` if it is not registered).
  public func isEnabled(_ id: ProviderID) -> Bool? {
    state.withLock { $0.providers.first { $0.id == id }?.enabled }
  }

  // MARK: Observers

  /// Adds an observer; it receives every dispatch of a tag sent after this call.
  ///
  /// It first receives, as `consent` dispatches of its own (no provider outcomes, the property
  /// `atAttach: true`), the hub's default consent when it is opt-in (``ConsentDefault``,
  /// `defaultConsent: false`) and each consent decision the hub holds already (restored at launch,
  /// or made before it was attached), so a recording started late still knows what applies and
  /// what was withdrawn.
  public func addObserver(_ observer: some HubObserver) {
    let clock = configuration.clock
    transact { state, _ in
      state.observers.append(observer)
      let consent = state.context.consent
      // An opt-in default is told first; the opt-out one (granted, the library's) goes unsaid, as
      // in recordings made before it was told.
      let opted = consent.defaultGranted ? [] : [ConsentDefault(granted: false).properties]
      let held = opted + consent.decisions.map(\.properties)
      for var properties in held {
        properties["atAttach"] = .bool(true)
        let dispatch = Dispatch(
          seq: state.takeSeq(), time: clock.now(), kind: .consent, name: "consent", properties: properties,
          context: state.snapshot())
        state.observations.append(.init(dispatch: dispatch, outstanding: 0, observers: [observer]))
      }
    }
  }

  /// Removes an observer added before; dispatches of tags sent before this call may still reach it
  /// until ``flush()`` returns.
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
  public func send(userAction: T.UserAction) { dispatch(.userAction(userAction)) }

  /// Sends an event tag (something that happened independently of the user).
  @inlinable
  public func send(event: T.Event) { dispatch(.event(event)) }

  /// Sends a state / user property tag.
  @inlinable
  public func send(state tag: T.State) { dispatch(.state(tag)) }

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
    let id = configuration.makeSessionID()
    let clock = configuration.clock
    transact { state, round in
      if let ended = state.context.session {
        state.context.session = nil
        dispatch(.sessionEnd(ended), issues: [], state: &state, round: &round)
      }
      if let user { state.context.user = user }
      let session = Session(id: id, user: state.context.user, properties: properties, startedAt: clock.now())
      state.context.session = session
      dispatch(.sessionStart(session), issues: [], state: &state, round: &round)
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

  /// Dispatches a tag that changes nothing in the context.
  @inlinable
  func dispatch(_ tag: Tag<T>) {
    transact { state, round in dispatch(tag, issues: [], state: &state, round: &round) }
  }

  @inlinable
  func perform(_ step: (inout HubState<T>, HubClock) -> Step<T>) {
    let clock = configuration.clock
    transact { state, round in
      switch step(&state, clock) {
      case .none:
        return
      case .send(let tag, let issues):
        dispatch(tag, issues: issues, state: &state, round: &round)
      case .report(let kind, let name, let properties, let issue):
        let seq = state.takeSeq()
        guard !state.observers.isEmpty else { return }
        let dispatch = Dispatch(
          seq: seq, time: clock.now(), kind: kind, name: name, properties: properties,
          context: state.snapshot(), issues: [issue])
        state.observations.append(.init(dispatch: dispatch, outstanding: 0, observers: state.observers))
      }
    }
  }

  /// Changes the state and dispatches under the lock, then delivers what this thread claimed.
  @inlinable
  func transact(_ body: (inout HubState<T>, inout DeliveryRound<T>) -> Void) {
    var round = DeliveryRound<T>(onCaller: true)
    state.withLock { state in
      body(&state, &round)
      state.claimObservers(into: &round)
    }
    if round.hasWork { deliver(&round) }
  }

  @inlinable
  func dispatch(_ tag: Tag<T>, issues: [HubIssue], state: inout HubState<T>, round: inout DeliveryRound<T>) {
    let seq = state.takeSeq()
    let bypassesConsent: Bool
    if case .consent = tag { bypassesConsent = true } else { bypassesConsent = false }
    guard !state.observers.isEmpty else {
      // Nobody observes: run the mappings and queue their calls, nothing else.
      let providers = state.providers
      for index in providers.indices {
        guard providers[index].enabled, bypassesConsent || providers[index].consented else { continue }
        // The hub's providers keep the lane alive: no need to retain it here.
        Unmanaged.passUnretained(providers[index].lane)._withUnsafeGuaranteedRef { lane in
          let claiming = !lane.busy
          guard lane.evaluate(lane, tag, state.context, seq, claiming) else { return }
          if claiming { state.claim(lane, into: &round) } else { lane.queued = true }
        }
      }
      return
    }
    let options = EvaluationOptions(checkRules: configuration.checksProviderRules, describeCalls: true)
    var outcomes: [ProviderOutcome] = []
    var outstanding = 0
    let providers = state.providers
    outcomes.reserveCapacity(providers.count)
    for index in providers.indices {
      let outcome: ProviderOutcome
      if !providers[index].enabled {
        outcome = ProviderOutcome(provider: providers[index].id, status: .blocked(.disabled))
      } else if !bypassesConsent, !providers[index].consented {
        outcome = ProviderOutcome(provider: providers[index].id, status: .blocked(.consent))
      } else {
        let evaluation = Unmanaged.passUnretained(providers[index].lane)._withUnsafeGuaranteedRef { lane in
          let claiming = !lane.busy
          let evaluation = lane.evaluateObserved(
            lane, tag, state.context, seq, outcomes.count, options, claiming)
          if case .sent = evaluation.status {
            outstanding += 1
            if claiming { state.claim(lane, into: &round) } else { lane.queued = true }
          }
          return evaluation
        }
        outcome = ProviderOutcome(
          provider: providers[index].id, status: evaluation.status, calls: evaluation.calls,
          violations: evaluation.violations)
      }
      outcomes.append(outcome)
    }
    let recorded = tag.recorded
    var allIssues = issues
    if let path = recorded.properties.firstUnrepresentablePath {
      allIssues.append(
        HubIssue(
          code: .unrepresentableValue,
          message: "\(recorded.name): property '\(path)' is not a finite number; it is recorded as null"))
    }
    let dispatch = Dispatch(
      seq: seq, time: configuration.clock.now(), kind: recorded.kind, name: recorded.name,
      properties: recorded.properties, eventType: recorded.eventType, context: state.snapshot(),
      outcomes: outcomes,
      issues: allIssues)
    state.observations.append(.init(dispatch: dispatch, outstanding: outstanding, observers: state.observers))
  }
}
