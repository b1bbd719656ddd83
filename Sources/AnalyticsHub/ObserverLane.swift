/// The hub's observed dispatches waiting for their observers, in sequence order.
///
/// A dispatch is ready once every adapter that had calls for it has taken them (so its outcomes
/// say `sent` or `failed` truthfully); ready dispatches at the head are claimed by one thread at a
/// time and handed to every observer in the same order. Guarded by the hub's lock, except the
/// batch in flight, which belongs to the thread that claimed the lane.
@usableFromInline
final class ObserverLane: @unchecked Sendable {
  @usableFromInline
  struct Observation {
    @usableFromInline var dispatch: Dispatch
    /// Adapters still to take this dispatch's calls.
    @usableFromInline var outstanding: Int
    /// The observers registered when the tag was sent.
    @usableFromInline var observers: [any HubObserver]

    @inlinable
    init(dispatch: Dispatch, outstanding: Int, observers: [any HubObserver]) {
      self.dispatch = dispatch
      self.outstanding = outstanding
      self.observers = observers
    }
  }

  /// A thread has claimed the lane (hub lock).
  @exclusivity(unchecked) @usableFromInline var busy = false
  /// A batch once took longer than the hub's threshold (see ``ProviderLane/slow``).
  @exclusivity(unchecked) @usableFromInline var slow = false
  @exclusivity(unchecked) @usableFromInline var waiting: [Observation] = []
  @exclusivity(unchecked) @usableFromInline var head = 0
  @exclusivity(unchecked) @usableFromInline var inFlight: [Observation] = []

  @usableFromInline init() {}

  /// The oldest waiting dispatch is ready for its observers.
  @inlinable
  var headIsReady: Bool { head < waiting.count && waiting[head].outstanding == 0 }

  @inlinable
  func append(_ observation: Observation) { waiting.append(observation) }

  /// One adapter took `seq`'s calls; `failure` is what it threw.
  @inlinable
  func complete(seq: UInt64, outcome: Int, failure: String?) {
    guard let index = index(of: seq) else { return }
    waiting[index].outstanding -= 1
    if let failure { waiting[index].dispatch.outcomes[outcome].status = .failed(failure) }
  }

  /// Where `seq` waits: usually at the head (adapters complete in order), else by binary search.
  @inlinable
  func index(of seq: UInt64) -> Int? {
    if head < waiting.count, waiting[head].dispatch.seq == seq { return head }
    var low = head
    var high = waiting.count
    while low < high {
      let middle = (low + high) / 2
      if waiting[middle].dispatch.seq < seq { low = middle + 1 } else { high = middle }
    }
    return low < waiting.count && waiting[low].dispatch.seq == seq ? low : nil
  }

  /// Moves the ready dispatches at the head into the batch in flight.
  @inlinable
  func claimReady() {
    var end = head
    while end < waiting.count, waiting[end].outstanding == 0 { end += 1 }
    if head == 0 && end == waiting.count && inFlight.isEmpty {
      swap(&waiting, &inFlight)
      return
    }
    inFlight.append(contentsOf: waiting[head..<end])
    head = end
    if head == waiting.count {
      waiting.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024, head * 2 >= waiting.count {
      waiting.removeFirst(head)
      head = 0
    }
  }

  /// Hands the batch in flight to its observers, one dispatch at a time (lock released, claimed).
  @inlinable
  func deliverInFlight() {
    // A local batch (observers cannot reach it) read by index: each dispatch is lent to the
    // observers in place, without a copy of its observation.
    let batch = inFlight
    for index in batch.indices {
      for observer in batch[index].observers { observer.hubDidDispatch(batch[index].dispatch) }
    }
  }

  /// Clears the delivered batch (hub lock, claimed).
  @inlinable
  func completeInFlight() { inFlight.removeAll(keepingCapacity: true) }
}
