/// One registered provider inside a hub: its pure mapping, and the queue of calls waiting for its
/// SDK adapter in hub order.
///
/// Everything but the batch in flight is guarded by the hub's lock. A thread claims the lane under
/// the lock (`busy`), which moves the queued calls into its batch; it delivers that batch with the
/// lock released and reports the results under the lock again. So calls reach the adapter one at a
/// time, in hub order, and never while the hub's lock is held.
///
/// The call type is erased with closures made in ``Provider``'s inlinable initializer, so the app's
/// module compiles them for its concrete call and adapter types.
@usableFromInline
final class ProviderLane<T: Taxonomy>: @unchecked Sendable {
  /// A thread has claimed the lane (hub lock).
  @exclusivity(unchecked) @usableFromInline var busy = false
  /// A batch once took longer than the hub's inline limit: delivered on a hub queue, never on the
  /// sending thread, until a batch there is fast again (hub lock).
  @exclusivity(unchecked) @usableFromInline var slow = false
  /// Runs the mapping (and rules) for a tag and queues its calls (hub lock): straight into the
  /// batch in flight when `claiming` (the lane is idle and the caller claims it next). The outcome
  /// index is this provider's place in the observed dispatch, or `nil` when nobody observes it.
  @usableFromInline let evaluate: (Tag<T>, HubContext<T>, UInt64, Int?, EvaluationOptions, Bool) -> Evaluation
  /// Calls are queued and not yet claimed (hub lock).
  @usableFromInline let hasPending: () -> Bool
  /// Moves the queued calls into the batch in flight (hub lock, claimed).
  @usableFromInline let claimPending: () -> Void
  /// Hands the batch in flight to the adapter and clears it, unless an observed dispatch waits
  /// for its outcome: then it returns `true` and the batch stays for ``completeInFlight`` (lock
  /// released, claimed).
  @usableFromInline let deliverInFlight: () -> Bool
  /// Reports the delivered batch's observed outcomes and clears it (hub lock, claimed).
  @usableFromInline let completeInFlight: (ObserverLane) -> Void
  /// The adapter's one-time setup.
  @usableFromInline let setup: () -> Void

  @inlinable
  init<Adapter: SDKAdapter>(
    adapter: Adapter, rules: RuleCheck<Adapter.Call>?, mapping: @escaping Mapping<T, Adapter.Call>
  ) {
    let queue = CallQueue<Adapter>()
    evaluate = { tag, context, seq, outcome, options, claiming in
      let calls = mapping(tag, context)
      if calls.isEmpty { return Evaluation(status: .dropped, calls: [], violations: []) }
      let violations = options.checkRules ? (rules?(calls) ?? []) : []
      let descriptions = options.describeCalls ? calls.map(CallDescription.init) : []
      let item = CallQueue<Adapter>.Item(seq: seq, outcome: outcome, calls: calls)
      if claiming { queue.inFlight.append(item) } else { queue.pending.append(item) }
      return Evaluation(status: .sent, calls: descriptions, violations: violations)
    }
    hasPending = { !queue.pending.isEmpty }
    claimPending = { swap(&queue.pending, &queue.inFlight) }
    deliverInFlight = { queue.deliver(to: adapter) }
    completeInFlight = { observations in queue.complete(observations) }
    setup = { adapter.setup() }
  }
}

/// One adapter's calls: queued (hub lock) and in flight (the claiming thread's).
@usableFromInline
final class CallQueue<Adapter: SDKAdapter> {
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

  @exclusivity(unchecked) @usableFromInline var pending: [Item] = []
  @exclusivity(unchecked) @usableFromInline var inFlight: [Item] = []

  @inlinable
  init() {}

  @inlinable
  func deliver(to adapter: Adapter) -> Bool {
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
  func complete(_ observations: ObserverLane) {
    for item in inFlight {
      guard let outcome = item.outcome else { continue }
      observations.complete(seq: item.seq, outcome: outcome, failure: item.failure)
    }
    if inFlight.count == 1 { inFlight.removeLast() } else { inFlight.removeAll(keepingCapacity: true) }
  }
}
