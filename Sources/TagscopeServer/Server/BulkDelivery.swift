import Dispatch

/// Delivers the events of a request with many of them from the large-body queue, not from an event
/// loop, in slices: a request's cost is paid where it cannot hold other connections' replies, and
/// at most one of its slices waits in the ingest queue at a time.
///
/// Before each slice it waits until the ingest queue has room and until the slice before it is
/// applied (taken off the queue and written, ``ListenIngest/whenApplied(_:)``: not synced, the
/// reply alone waits for that), so one client's 1.45 million-event batch neither fills the queue
/// that small requests need (they would get `503`) nor keeps its records in memory at once; an endpoint that leaves its
/// events in the body (``EventBatch``) has each slice decoded just before it is delivered, and the
/// events of one that decoded them all (Firebase's upload) are let go a slice at a time as they are
/// delivered. So at most two slices' records and recording lines are held at once.
enum BulkDelivery {
  /// The most events per slice: the lines of two slices (about 1,160 bytes an event for Firebase's
  /// largest upload, whose events take 236 bytes of its body) stay under the body they came from.
  static let sliceSize = 256
  /// The fewest events per slice (but the last): each slice waits for the worker to apply the one
  /// before it, so a batch is never cut finer than this.
  static let smallestSlice = 32
  /// Body bytes per event of a slice of small events (``sliceSize(bytes:)``): twice a small
  /// event's recording line (Firebase's 12-byte event makes a 443-byte line).
  static let bytesPerSliceEvent = 1_024

  /// Events per slice of a batch read from `bytes` of body: as many as the body has
  /// ``bytesPerSliceEvent`` bytes, between ``smallestSlice`` and ``sliceSize``. A record costs
  /// about the same in flight whatever its event's size (its line, the record, its ledger
  /// entry): 256 of Firebase's smallest events (4,000 of 12 bytes in 48 KB) held twice the body in
  /// two slices' lines alone. So the lines of two slices stay under the body however small the
  /// events, and a batch of large events still goes 256 at a time.
  static func sliceSize(bytes: Int) -> Int {
    min(sliceSize, max(smallestSlice, bytes / bytesPerSliceEvent))
  }

  /// Requests with more events than this are delivered off the event loop, whatever their size.
  static let offloadEvents = 256
  /// The longest it waits for the ingest queue before it delivers anyway (a consumer that never
  /// drains must not hold the queue for ever; the queue takes what it is given).
  static let stallLimit = DispatchTimeInterval.seconds(30)

  /// Delivers `events` from `address` through `server`, blocking the calling thread (the
  /// large-body queue) while the ingest queue is full. The events are cut into slices first and
  /// each slice is let go once delivered: given the only copy of `events`, the delivered ones are
  /// not held until the last is.
  static func deliver(
    _ events: consuming [IngestedEvent], address: String, server: ServerContext, ledger: RetryLedger? = nil
  ) {
    let count = events.count
    var slices = stride(from: 0, to: count, by: sliceSize).map { start in
      Array(events[start..<min(start + sliceSize, count)])
    }
    events = []
    deliver(count: count, size: sliceSize, address: address, server: server, ledger: ledger) { positions in
      let index = positions.lowerBound / sliceSize
      defer { slices[index] = [] }
      return slices[index]
    }
  }

  /// Delivers the events of `batch`, each slice decoded just before it is delivered: a batch's
  /// decoded events are never all in memory at once, and a batch of small events goes in smaller
  /// slices (``sliceSize(bytes:)``).
  static func deliver(_ batch: EventBatch, address: String, server: ServerContext, ledger: RetryLedger? = nil)
  {
    let size = sliceSize(bytes: batch.bytes)
    deliver(count: batch.count, size: size, address: address, server: server, ledger: ledger) {
      batch.events($0)
    }
  }

  /// Delivers `count` events `size` at a time, `slice` giving those at some positions.
  private static func deliver(
    count: Int, size: Int, address: String, server: ServerContext, ledger: RetryLedger?,
    slice: (Range<Int>) -> [IngestedEvent]
  ) {
    var previous: DispatchSemaphore?
    var start = 0
    while start < count {
      let end = min(start + size, count)
      waitForRoom(server.ingest)
      _ = previous?.wait(timeout: .now() + stallLimit)
      server.deliver(slice(start..<end), address: address, ledger: ledger)
      if end < count {
        let applied = DispatchSemaphore(value: 0)
        server.ingest.whenApplied { applied.signal() }
        previous = applied
      }
      start = end
    }
  }

  private static func waitForRoom(_ ingest: any ListenIngest) {
    guard !ingest.hasRoom else { return }
    let room = DispatchSemaphore(value: 0)
    ingest.whenRoom { room.signal() }
    _ = room.wait(timeout: .now() + stallLimit)
  }
}
