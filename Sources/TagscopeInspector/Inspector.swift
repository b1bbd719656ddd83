import AnalyticsHub
import Foundation
import TagscopeRecording

/// The hub observer behind tagscope: attach it to a hub and every dispatch becomes a ``Record``
/// delivered to its sinks (a ``Recorder`` file, a ``RemoteSink`` to `tagscope listen`, a live
/// ``Timeline``).
///
/// ```swift
/// let recorder = try Recorder(url: url, header: RecordingHeader(app: "Podcasts", started: Date()))
/// let inspector = Inspector(sinks: [recorder])
/// hub.addObserver(inspector)
/// …
/// inspector.close()  // flushes and closes the sinks
/// ```
///
/// On the app's thread the inspector only enqueues the dispatch (a lock and an append, never a
/// wait); building the record, encoding its line and writing happen on one background thread. The
/// backlog is bounded by `capacity`: when the app outruns the sinks, dispatches are dropped and
/// counted, and every sink receives a ``DropMarker`` (origin `inspector`) right where the gap is.
///
/// A data generator (the headless demo, a test writing a recording) passes `whenFull: .wait`
/// instead: the thread delivering the dispatch waits for room, so nothing is dropped and the
/// producer slows down to the writer's pace.
public final class Inspector: HubObserver, @unchecked Sendable {
  /// What happens to a dispatch that arrives while the backlog is full.
  public enum Overflow: Sendable {
    /// Dropped and counted (the app's thread never waits).
    case drop
    /// The delivering thread waits for room (backpressure; never for an app's thread).
    case wait
  }

  private let sinks: [any RecordSink]
  private let drain: BackgroundDrain<Dispatch>
  private let overflow: Overflow

  /// An inspector delivering to `sinks`, with a backlog of at most `capacity` dispatches.
  public init(sinks: [any RecordSink], capacity: Int = 16_384, whenFull overflow: Overflow = .drop) {
    self.sinks = sinks
    self.overflow = overflow
    let lastSeq = LastSeq()
    drain = BackgroundDrain(capacity: capacity, name: "tagscope.inspector") { dispatches, dropped in
      var items: [SinkItem] = []
      items.reserveCapacity(dispatches.count + 1)
      for dispatch in dispatches { items.append(SinkItem(Record(dispatch: dispatch))) }
      if let last = dispatches.last { lastSeq.value = last.seq }
      if dropped > 0 {
        items.append(
          SinkItem(DropMarker(count: dropped, time: Date(), afterSeq: lastSeq.value, origin: "inspector")))
      }
      for sink in sinks { sink.receive(items) }
    }
  }

  public func hubDidDispatch(_ dispatch: Dispatch) { drain.push(dispatch, waiting: overflow == .wait) }

  /// Dispatches dropped because the backlog was full.
  public var droppedCount: Int { drain.droppedCount }

  /// Blocks until every dispatch received so far reached the sinks, then flushes them.
  public func flush() {
    drain.flush()
    for sink in sinks { sink.flush() }
  }

  /// Delivers what is queued, then closes every sink. Later dispatches are dropped.
  public func close() {
    drain.close()
    for sink in sinks { sink.close() }
  }
}

/// The last sequence number delivered (touched only by the background thread).
private final class LastSeq: @unchecked Sendable {
  var value: UInt64?
}
