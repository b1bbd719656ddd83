/// One registered provider inside a hub: its pure mapping, and the queue of calls waiting for its
/// SDK adapter in hub order.
///
/// Everything but the batch in flight is guarded by the hub's lock. A thread claims the lane under
/// the lock (`busy`), which moves the queued calls into its batch; it delivers that batch with the
/// lock released and reports the results under the lock again. So calls reach the adapter one at a
/// time, in hub order, and never while the hub's lock is held.
///
/// The call and adapter types live in ``AdapterLane``; this class erases them with functions that
/// capture nothing and are handed the lane itself. They are made in ``Provider``'s inlinable
/// initializer, so the app's module compiles them for its concrete call and adapter types, and
/// calling one retains nothing.
@usableFromInline
class ProviderLane<T: Taxonomy>: @unchecked Sendable {
  /// A thread has claimed the lane (hub lock).
  @exclusivity(unchecked) @usableFromInline final var busy = false
  /// A batch once took longer than the hub's inline limit: delivered on a hub queue, never on the
  /// sending thread, until a batch there is fast again (hub lock).
  @exclusivity(unchecked) @usableFromInline final var slow = false
  /// Calls are queued and not yet claimed (hub lock): set when a tag's calls are queued behind
  /// the batch in flight, cleared when the claiming thread takes them (``claimPending``).
  @exclusivity(unchecked) @usableFromInline final var queued = false
  /// Runs the mapping for a tag nobody observes and queues its calls (hub lock): straight into the
  /// batch in flight when `claiming` (the lane is idle and the caller claims it next). Returns
  /// whether the mapping returned calls.
  @usableFromInline final let evaluate: (ProviderLane<T>, Tag<T>, HubContext<T>, UInt64, Bool) -> Bool
  /// The same for an observed tag, with the rules checked as `options` say and the calls
  /// described; the outcome index is this provider's place in the observed dispatch.
  @usableFromInline final let evaluateObserved:
    (ProviderLane<T>, Tag<T>, HubContext<T>, UInt64, Int, EvaluationOptions, Bool) -> Evaluation
  /// Moves the queued calls into the batch in flight (hub lock, claimed).
  @usableFromInline final let claimPending: (ProviderLane<T>) -> Void
  /// Hands the batch in flight to the adapter and clears it, unless an observed dispatch waits
  /// for its outcome: then it returns `true` and the batch stays for ``completeInFlight`` (lock
  /// released, claimed).
  @usableFromInline final let deliverInFlight: (ProviderLane<T>) -> Bool
  /// Reports the delivered batch's observed outcomes and clears it (hub lock, claimed).
  @usableFromInline final let completeInFlight: (ProviderLane<T>, ObserverLane) -> Void
  /// The adapter's one-time setup.
  @usableFromInline final let setup: (ProviderLane<T>) -> Void

  @inlinable
  init(
    evaluate: @escaping (ProviderLane<T>, Tag<T>, HubContext<T>, UInt64, Bool) -> Bool,
    evaluateObserved:
      @escaping (ProviderLane<T>, Tag<T>, HubContext<T>, UInt64, Int, EvaluationOptions, Bool) ->
      Evaluation,
    claimPending: @escaping (ProviderLane<T>) -> Void,
    deliverInFlight: @escaping (ProviderLane<T>) -> Bool,
    completeInFlight: @escaping (ProviderLane<T>, ObserverLane) -> Void,
    setup: @escaping (ProviderLane<T>) -> Void
  ) {
    self.evaluate = evaluate
    self.evaluateObserved = evaluateObserved
    self.claimPending = claimPending
    self.deliverInFlight = deliverInFlight
    self.completeInFlight = completeInFlight
    self.setup = setup
  }
}

/// A provider lane with its adapter, rules, mapping and calls: queued (hub lock) and in flight
/// (the claiming thread's).
@usableFromInline
final class AdapterLane<T: Taxonomy, Adapter: SDKAdapter>: ProviderLane<T>, @unchecked Sendable {
  @usableFromInline
  struct Item {
    @usableFromInline var seq: UInt64
    @usableFromInline var outcome: Int?
    @usableFromInline var calls: [Adapter.Call]
    @usableFromInline var failure: String?

    @inlinable
    init(seq: UInt64, outcome: Int?, calls: [Adapter.Call]) {
      self.seq = seq
      self.outcome = outcome
      self.calls = calls
    }
  }

  @usableFromInline let adapter: Adapter
  @usableFromInline let rules: RuleCheck<Adapter.Call>?
  @usableFromInline let mapping: Mapping<T, Adapter.Call>
  @exclusivity(unchecked) @usableFromInline var pending: [Item] = []
  @exclusivity(unchecked) @usableFromInline var inFlight: [Item] = []

  @inlinable
  init(adapter: Adapter, rules: RuleCheck<Adapter.Call>?, mapping: @escaping Mapping<T, Adapter.Call>) {
    self.adapter = adapter
    self.rules = rules
    self.mapping = mapping
    super.init(
      evaluate: { lane, tag, context, seq, claiming in
        unsafeDowncast(lane, to: Self.self).evaluate(tag, context, seq, claiming)
      },
      evaluateObserved: { lane, tag, context, seq, outcome, options, claiming in
        unsafeDowncast(lane, to: Self.self).evaluate(tag, context, seq, outcome, options, claiming)
      },
      claimPending: { lane in unsafeDowncast(lane, to: Self.self).claimPending() },
      deliverInFlight: { lane in unsafeDowncast(lane, to: Self.self).deliverInFlight() },
      completeInFlight: { lane, observations in
        unsafeDowncast(lane, to: Self.self).completeInFlight(observations)
      },
      setup: { lane in unsafeDowncast(lane, to: Self.self).adapter.setup() })
  }

  @inlinable
  final func append(_ item: Item, claiming: Bool) {
    if claiming { inFlight.append(item) } else { pending.append(item) }
  }

  @inlinable
  final func evaluate(_ tag: Tag<T>, _ context: HubContext<T>, _ seq: UInt64, _ claiming: Bool) -> Bool {
    let calls = mapping(tag, context)
    if calls.isEmpty { return false }
    append(Item(seq: seq, outcome: nil, calls: calls), claiming: claiming)
    return true
  }

  @inlinable
  final func evaluate(
    _ tag: Tag<T>, _ context: HubContext<T>, _ seq: UInt64, _ outcome: Int, _ options: EvaluationOptions,
    _ claiming: Bool
  ) -> Evaluation {
    let calls = mapping(tag, context)
    if calls.isEmpty { return Evaluation(status: .dropped, calls: [], violations: []) }
    let violations = options.checkRules ? (rules?(calls) ?? []) : []
    let descriptions = options.describeCalls ? calls.map(CallDescription.init) : []
    append(Item(seq: seq, outcome: outcome, calls: calls), claiming: claiming)
    return Evaluation(status: .sent, calls: descriptions, violations: violations)
  }

  @inlinable
  final func claimPending() { swap(&pending, &inFlight) }

  @inlinable
  final func deliverInFlight() -> Bool {
    var observed = false
    for index in inFlight.indices {
      if inFlight[index].outcome != nil { observed = true }
      for call in inFlight[index].calls {
        do { try adapter.deliver(call) } catch {
          inFlight[index].failure = String(describing: error)
          break
        }
      }
    }
    if observed { return true }
    if inFlight.count == 1 { inFlight.removeLast() } else { inFlight.removeAll(keepingCapacity: true) }
    return false
  }

  @inlinable
  final func completeInFlight(_ observations: ObserverLane) {
    for index in inFlight.indices {
      guard let outcome = inFlight[index].outcome else { continue }
      observations.complete(seq: inFlight[index].seq, outcome: outcome, failure: inFlight[index].failure)
    }
    if inFlight.count == 1 { inFlight.removeLast() } else { inFlight.removeAll(keepingCapacity: true) }
  }
}
