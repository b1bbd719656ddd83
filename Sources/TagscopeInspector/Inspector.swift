import AnalyticsHub
import Foundation
import TagscopeRecording

/// The hub observer behind tagscope: attach it to a hub and every dispatch becomes a `Record`
/// delivered to its sinks (a ``Recorder`` file, a ``RemoteSink`` to `tagscope listen`, a live
/// `Timeline`).
///
/// ```swift
/// let recorder = try Recorder(url: url, header: RecordingHeader(app: "Podcasts", started: Date()))
/// let inspector = Inspector(sinks: [recorder])
/// hub.addObserver(inspector)
/// // … the app runs
/// inspector.close()  // flushes and closes the sinks
/// ```
///
/// On the app's thread the inspector only enqueues the dispatch (a lock and an append, never a
/// wait); building the record, encoding its line and writing happen on one background thread. The
/// backlog is bounded (by default 32 MiB of the lines it will become, ``Backlog``): when the app
/// outruns the sinks for that long (a stalled disk or network), dispatches are dropped and counted,
/// and every sink receives a `DropMarker` (origin `inspector`) right where the gap is.
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

  /// How much the inspector keeps for its writer before it drops (or, with `.wait`, waits).
  public enum Backlog: Sendable, Equatable {
    /// At most this many bytes of record lines, estimated from the lines written so far.
    case bytes(Int)
    /// At most this many dispatches.
    case dispatches(Int)

    /// 32 MiB of lines: about 30,000 records of a typical app, seconds of a stalled disk.
    public static let standard = Backlog.bytes(32 << 20)
  }

  private let sinks: [any RecordSink]
  private let drain: BackgroundDrain<Dispatch>
  private let overflow: Overflow

  /// An inspector delivering to `sinks`, keeping at most `backlog` for its writer thread, and
  /// dropping (`.drop`, for an app) or waiting (`.wait`, for a data generator) beyond it.
  public init(sinks: [any RecordSink], backlog: Backlog = .standard, whenFull overflow: Overflow = .drop) {
    self.sinks = sinks
    self.overflow = overflow
    let state = WriterState(backlog: backlog)
    drain = BackgroundDrain(
      capacity: state.limit, lowPriority: overflow == .drop, name: "tagscope.inspector"
    ) { dispatches, dropped in
      var items: [SinkItem] = []
      items.reserveCapacity(dispatches.count + 1)
      var lineBytes = 0
      for dispatch in dispatches {
        let item = SinkItem(Record(dispatch: dispatch))
        lineBytes += item.line.count
        items.append(item)
      }
      state.measure(lines: dispatches.count, bytes: lineBytes)
      if let last = dispatches.last { state.lastSeq = last.seq }
      if dropped > 0 {
        items.append(
          SinkItem(DropMarker(count: dropped, time: Date(), afterSeq: state.lastSeq, origin: "inspector")))
      }
      for sink in sinks { sink.receive(items) }
    }
    state.resize = { [weak drain] limit in drain?.limit = limit }
  }

  public func hubDidDispatch(_ dispatch: Dispatch) { drain.push(dispatch, waiting: overflow == .wait) }

  /// Dispatches dropped because the backlog was full.
  public var droppedCount: Int { drain.droppedCount }

  /// How many dispatches the backlog holds now (a byte backlog's limit follows the line sizes).
  var backlogLimit: Int { drain.limit }

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

/// What the writer thread keeps between batches: the last sequence number delivered, and the mean line size that turns a byte backlog into
/// a dispatch count.
private final class WriterState: @unchecked Sendable {
  var lastSeq: UInt64?
  /// Set once in the inspector's `init`, before any dispatch is pushed: the writer only runs the
  /// handler for pushed dispatches, and the push's lock orders this write before its reads.
  var resize: @Sendable (Int) -> Void = { _ in }
  private let bytes: Int?
  private var meanLineBytes = 1024.0
  private var measured = false
  private(set) var limit: Int

  init(backlog: Inspector.Backlog) {
    switch backlog {
    case .bytes(let bytes):
      self.bytes = bytes
      limit = WriterState.limit(bytes: bytes, lineBytes: meanLineBytes)
    case .dispatches(let count):
      bytes = nil
      limit = max(1, count)
    }
  }

  /// Folds a batch's line sizes into the mean and resizes the backlog when its limit moved by
  /// more than an eighth.
  func measure(lines: Int, bytes lineBytes: Int) {
    guard let bytes, lines > 0 else { return }
    // The first batch sets the mean; later ones move it by their share of the last ~256 lines.
    let weight = measured ? min(1, Double(lines) / 256) : 1
    measured = true
    meanLineBytes += (Double(lineBytes) / Double(lines) - meanLineBytes) * weight
    let next = WriterState.limit(bytes: bytes, lineBytes: meanLineBytes)
    if abs(next - limit) > limit / 8 {
      limit = next
      resize(next)
    }
  }

  private static func limit(bytes: Int, lineBytes: Double) -> Int {
    max(64, Int(Double(bytes) / max(64, lineBytes)))
  }
}
