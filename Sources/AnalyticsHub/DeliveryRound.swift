import Dispatch

/// The lanes one thread has claimed and delivers with the hub's lock released: a sending thread
/// (`onCaller`) or one of the hub's background deliveries.
@usableFromInline
struct DeliveryRound<T: Taxonomy>: Sendable {
  /// A sending thread: bounded in time, never delivers to a slow lane.
  @usableFromInline let onCaller: Bool
  /// Claimed provider lanes, each with a batch in flight. Not retained: a claimed lane stays
  /// alive in the hub's providers, or in ``HubState/retiredLanes`` once unregistered.
  @usableFromInline var lanes: [Unmanaged<ProviderLane<T>>] = []
  /// Lanes (by index in ``lanes``, up to 64) whose delivered batch waits for ``ProviderLane/completeInFlight``;
  /// a round claims more than 64 only with as many providers, and then completes them all.
  @usableFromInline var observedBatches: UInt64 = 0
  /// The observer lane is claimed.
  @usableFromInline var observers = false
  /// Claimed work this thread gives to a background delivery instead of doing it.
  @usableFromInline var handoffs: [DeliveryRound] = []
  /// Unregistered lanes this round delivered last, released with the lock released.
  @usableFromInline var released: [ProviderLane<T>] = []

  @inlinable
  init(onCaller: Bool) { self.onCaller = onCaller }

  @inlinable
  init(background lane: ProviderLane<T>) {
    onCaller = false
    lanes = [Unmanaged.passUnretained(lane)]
  }

  /// A background round that delivers the claimed observer lane.
  @inlinable
  static func observersInBackground() -> DeliveryRound {
    var round = DeliveryRound(onCaller: false)
    round.observers = true
    return round
  }

  @inlinable
  var hasWork: Bool { !lanes.isEmpty || observers || !handoffs.isEmpty }
}

extension HubState {
  /// Claims an idle lane whose batch in flight has just been given calls: the round delivers them,
  /// or, when the lane is slow and the round is a sending thread's, a background delivery does.
  @inlinable
  mutating func claim(_ lane: ProviderLane<T>, into round: inout DeliveryRound<T>) {
    lane.busy = true
    busyLanes += 1
    if round.onCaller && lane.slow {
      round.handoffs.append(DeliveryRound(background: lane))
      return
    }
    // A sending thread borrows the hub's spare buffer instead of allocating one per send.
    if round.lanes.capacity == 0 && spareLanes.capacity > 0 { swap(&round.lanes, &spareLanes) }
    round.lanes.append(Unmanaged.passUnretained(lane))
  }

  /// Claims the observer lane when it is idle and its oldest dispatch is ready.
  @inlinable
  mutating func claimObservers(into round: inout DeliveryRound<T>) {
    guard !observations.busy, observations.headIsReady else { return }
    observations.busy = true
    busyLanes += 1
    takeReadyObservations(into: &round, overBudget: false)
  }

  /// Moves the ready dispatches into the claimed observer lane's batch; the round delivers them,
  /// or, for slow observers or past its time on a sending thread, a background delivery does.
  @inlinable
  mutating func takeReadyObservations(into round: inout DeliveryRound<T>, overBudget: Bool) {
    observations.claimReady()
    if round.onCaller && (observations.slow || overBudget) {
      round.observers = false
      round.handoffs.append(DeliveryRound.observersInBackground())
    } else {
      round.observers = true
    }
  }

  /// A lane went idle; wakes `flush()` when it was the last.
  @inlinable
  mutating func laneIdled(_ lock: Locked<HubState<T>>) {
    busyLanes -= 1
    if busyLanes == 0 && flushWaiting {
      flushWaiting = false
      lock.wakeWaiters()
    }
  }

  /// Reports a delivered round under the lock and decides what the thread does next: claims the
  /// lanes' newly queued calls (and ready dispatches) again, or, past its time on a sending thread
  /// or for a slow lane, hands them to a background delivery.
  ///
  /// A batch that took long marks every lane of the round slow: the time was measured for the
  /// round, not per lane. A fast lane marked so goes back to its sending threads after one fast
  /// batch on a hub queue.
  @inlinable
  mutating func finish(
    _ round: inout DeliveryRound<T>, lanesTookLong: Bool, observersTookLong: Bool, overBudget: Bool,
    lock: Locked<HubState<T>>
  ) {
    var kept = 0
    var idled = false
    for index in round.lanes.indices {
      let reference = round.lanes[index]
      let keep = reference._withUnsafeGuaranteedRef { lane in
        if index >= 64 || round.observedBatches & (1 << UInt64(index)) != 0 {
          lane.completeInFlight(lane, observations)
        }
        if lanesTookLong { lane.slow = true } else if !round.onCaller { lane.slow = false }
        guard lane.queued else {
          lane.busy = false
          return false
        }
        lane.queued = false
        lane.claimPending(lane)
        if round.onCaller && (lane.slow || overBudget) {
          round.handoffs.append(DeliveryRound(background: lane))
          return false
        }
        return true
      }
      if keep {
        round.lanes[kept] = reference
        kept += 1
      } else if !reference._withUnsafeGuaranteedRef({ $0.busy }) {
        idled = true
        laneIdled(lock)
      }
    }
    round.observedBatches = 0
    if kept < round.lanes.count { round.lanes.removeLast(round.lanes.count - kept) }
    // An unregistered lane lives on here until its last batch is delivered.
    if idled && !retiredLanes.isEmpty {
      round.released.append(contentsOf: retiredLanes.lazy.filter { !$0.busy })
      retiredLanes.removeAll { !$0.busy }
    }
    if kept == 0 && round.onCaller && spareLanes.capacity == 0 { swap(&round.lanes, &spareLanes) }
    guard round.observers else {
      claimObservers(into: &round)
      return
    }
    observations.completeInFlight()
    if observersTookLong { observations.slow = true } else if !round.onCaller { observations.slow = false }
    guard observations.headIsReady else {
      round.observers = false
      observations.busy = false
      laneIdled(lock)
      return
    }
    takeReadyObservations(into: &round, overBudget: overBudget)
  }
}

extension AnalyticsHub {
  /// Delivers what `round` claimed, with the lock released, until nothing is left for this
  /// thread; hands the rest to background deliveries.
  @inlinable
  func deliver(_ round: inout DeliveryRound<T>) {
    let limit = configuration.inlineDeliveryLimitNanoseconds
    let started = DispatchTime.now().uptimeNanoseconds
    var mark = started
    while true {
      if !round.handoffs.isEmpty {
        for handoff in round.handoffs { deliverInBackground(handoff) }
        round.handoffs.removeAll()
      }
      guard round.hasWork else { return }
      var lanesTookLong = false
      if !round.lanes.isEmpty {
        for index in round.lanes.indices
        where round.lanes[index]._withUnsafeGuaranteedRef({ $0.deliverInFlight($0) }) && index < 64 {
          round.observedBatches |= 1 << UInt64(index)
        }
        let now = DispatchTime.now().uptimeNanoseconds
        lanesTookLong = now &- mark > limit
        mark = now
      }
      var observersTookLong = false
      if round.observers {
        observations.deliverInFlight()
        let now = DispatchTime.now().uptimeNanoseconds
        observersTookLong = now &- mark > limit
        mark = now
      }
      let overBudget = round.onCaller && mark &- started > limit
      state.withLock { state in
        state.finish(
          &round, lanesTookLong: lanesTookLong, observersTookLong: observersTookLong, overBudget: overBudget,
          lock: self.state)
      }
      if !round.released.isEmpty { round.released.removeAll() }
      // Time spent waiting for the lock is not the next batch's.
      if round.hasWork { mark = DispatchTime.now().uptimeNanoseconds }
    }
  }

  /// Runs a round on a hub queue: a slow lane's deliveries, or work a sending thread passed on.
  @usableFromInline
  func deliverInBackground(_ round: DeliveryRound<T>) {
    DispatchQueue.global(qos: .utility).async { [self] in
      var round = round
      deliver(&round)
    }
  }
}
