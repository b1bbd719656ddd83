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
}

extension LiveStore {
  /// A store that keeps nothing on disk has nothing to make durable.
  public func sync() {}
}

extension Timeline: LiveStore {}

extension Recorder: LiveStore {
  public var lastWriteError: SystemError? { lastError }
}
