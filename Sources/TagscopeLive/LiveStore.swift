import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline

/// Where a live session stores records: the debugger's live ``Timeline`` (which writes the
/// recording and indexes it) or, headless, a ``Recorder``.
public protocol LiveStore: RecordSink {
  /// The first error writing the recording, if any.
  var lastWriteError: SystemError? { get }
  /// Makes what was written durable (`fsync`); a failure becomes ``lastWriteError``.
  func sync()
  /// Stores the items of `segments` in order, as one batch: the arrays the session's batch
  /// arrived in, handed over as they are.
  func receive(segments: [[SinkItem]])
}

extension LiveStore {
  /// A store that keeps nothing on disk has nothing to make durable.
  public func sync() {}

  /// Joins the segments into one array for ``RecordSink/receive(_:)`` (one segment: as it is).
  public func receive(segments: [[SinkItem]]) {
    if segments.count == 1 {
      receive(segments[0])
    } else if !segments.isEmpty {
      receive(Array(segments.joined()))
    }
  }
}

extension Timeline: LiveStore {}

extension Recorder: LiveStore {
  public var lastWriteError: SystemError? { lastError }
}
