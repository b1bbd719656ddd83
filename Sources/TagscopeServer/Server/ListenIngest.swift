import TagscopeRecording

/// Where a ``ListenServer`` puts what it receives: a queue the server fills from its event loops
/// and someone else drains.
///
/// The server only parses and enqueues. When ``hasRoom`` is false it holds clients back instead of
/// buffering more: an HTTP request gets `503` with `Retry-After` (nothing of it is taken), a native
/// stream is not read until ``whenRoom(_:)`` calls back. Whatever ``deliver(_:)`` took must reach
/// the recording, so a `200` reply still means the records will be in it.
public protocol ListenIngest: AnyObject, Sendable {
  /// Takes `event`, in order with the other events of its connection. Always succeeds: callers
  /// check ``hasRoom`` before reading more, so the queue goes over its bound by at most one read
  /// (or one request) per connection.
  func deliver(_ event: ListenEvent)
  /// Takes records with the recording lines they are stored as (a native client's lines as they
  /// arrived, `source` added), so they are never encoded again; otherwise as ``deliver(_:)``.
  func deliver(_ records: [Record], lines: [[UInt8]])
  /// Whether the queue takes more now.
  var hasRoom: Bool { get }
  /// Calls `resume` once there is room again (at once, on the calling thread, if there is now).
  func whenRoom(_ resume: @escaping @Sendable () -> Void)
  /// Calls `done` once everything delivered before this call is stored (written to the recording),
  /// on any thread: native clients that ask for acknowledgements get them from here.
  func whenStored(_ done: @escaping @Sendable () -> Void)
  /// Calls `done` once everything delivered before this call is taken off the queue and applied
  /// (handed to the recording's writer, not yet synced), on any thread: a request delivered in
  /// slices waits for this before each slice, so its memory stays bounded without waiting for
  /// the disk. It promises no durability: the reply still waits for ``whenStored(_:)``.
  func whenApplied(_ done: @escaping @Sendable () -> Void)
  /// Takes the records of an SDK request the proxy forwards to its vendor: whoever follows their
  /// delivery learns the vendor's answer from `exchange`; otherwise as ``deliver(_:)``.
  func deliver(_ records: [Record], forwardedIn exchange: WireExchange)
}

extension ListenIngest {
  /// An ingest that keeps records, not lines: the records alone.
  public func deliver(_ records: [Record], lines: [[UInt8]]) { deliver(.records(records)) }

  /// An ingest that stores as it takes: at once.
  public func whenStored(_ done: @escaping @Sendable () -> Void) { done() }

  /// An ingest that does not tell applied from stored: once stored.
  public func whenApplied(_ done: @escaping @Sendable () -> Void) { whenStored(done) }

  /// An ingest that does not follow delivery: the records alone.
  public func deliver(_ records: [Record], forwardedIn exchange: WireExchange) { deliver(.records(records)) }
}

/// An ingest without a queue: each event goes to a closure on the event-loop thread that read it.
/// For tests and tools that consume quickly; it never holds a client back.
final class ImmediateIngest: ListenIngest {
  private let consumer: @Sendable (ListenEvent) -> Void

  init(_ consumer: @escaping @Sendable (ListenEvent) -> Void) { self.consumer = consumer }

  func deliver(_ event: ListenEvent) { consumer(event) }

  var hasRoom: Bool { true }

  func whenRoom(_ resume: @escaping @Sendable () -> Void) { resume() }
}
