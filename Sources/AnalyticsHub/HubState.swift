/// A provider as the hub holds it: its lane (mapping and call queue) and its switches.
@usableFromInline
struct RegisteredProvider<T: Taxonomy> {
  @usableFromInline let id: ProviderID
  @usableFromInline let category: ConsentCategory
  @usableFromInline let lane: ProviderLane<T>
  @usableFromInline var enabled: Bool
  /// Consent resolved for this provider; refreshed whenever decisions or providers change.
  @usableFromInline var consented = true

  init(_ provider: Provider<T>) {
    id = provider.id
    category = provider.category
    lane = provider.makeLane()
    enabled = provider.initiallyEnabled
  }
}

/// Everything behind the hub's lock: the context, the providers and observers, and the queues of
/// deliveries not yet made.
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
  /// Observed dispatches waiting for their adapters or observers (the hub's own lane).
  @usableFromInline let observations: ObserverLane
  /// Lanes (the observer lane included) claimed by a thread; `flush()` waits for zero.
  @usableFromInline var busyLanes = 0
  /// A `flush()` is waiting for ``busyLanes`` to reach zero.
  @usableFromInline var flushWaiting = false
  /// An empty array with capacity, lent to one sending thread's round at a time.
  @usableFromInline var spareLanes: [Unmanaged<ProviderLane<T>>] = []
  /// Unregistered lanes still claimed by a round (which does not retain them), until idle.
  @usableFromInline var retiredLanes: [ProviderLane<T>] = []

  init(context: HubContext<T>, observations: ObserverLane) {
    self.context = context
    self.observations = observations
    spareLanes.reserveCapacity(4)
  }

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
      let granted = consent.isGranted(provider: providers[index].id, category: providers[index].category)
      if providers[index].consented != granted { providers[index].consented = granted }
    }
  }
}

/// What a tag method asks the hub to do once its state change is made.
@usableFromInline
enum Step<T: Taxonomy> {
  case none
  case send(Tag<T>, issues: [HubIssue] = [])
  case report(kind: TagKind, name: String, properties: Properties, issue: HubIssue)
}
