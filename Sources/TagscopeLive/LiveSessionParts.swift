import TagscopeServer
import TagscopeTimeline

/// The running parts of a live session, as ``LiveSessionRoot`` started them: what the paths
/// observing it read (the timeline, the plan check, the server's port and counters) and the one
/// shutdown they all call.
public final class LiveSessionParts: Sendable {
  /// This run's timeline (a temporary file the debugger and the query API read).
  public let timeline: Timeline
  /// The session: ingest queue, store, plan check, updates; the demo's inspector writes to it.
  public let session: LiveSession
  /// The listen server (with the proxy and the followed logs), unless the session does not serve.
  public let server: ListenServer?
  /// Where the session listens, what it reads and records to: the line every path shows.
  public let description: String

  init(timeline: Timeline, session: LiveSession, server: ListenServer?, description: String) {
    self.timeline = timeline
    self.session = session
    self.server = server
    self.description = description
  }

  /// The session's one plan check, if it has a plan.
  public var checker: PlanChecker? { session.checker }

  /// The server's bound port (`nil` without a server).
  public var port: Int? { server?.port }

  /// The server's counters (`nil` without a server).
  public var statistics: ServerStatistics? { server?.statistics }

  /// Stops the session in the one order every path uses: the server closes every connection
  /// (nothing more is taken), the session writes out its queue (everything taken is in the
  /// recording), `beforeRelease` reads the final results (summaries, reports), then the timeline
  /// is released. A failure closing the server is thrown after the rest is done.
  public func shutdown(beforeRelease: (LiveSessionParts) -> Void = { _ in }) async throws {
    defer { timeline.release(keepTemporary: false) }
    var failure: (any Error)?
    if let server {
      do { try await server.shutdown() } catch { failure = error }
    }
    session.close()
    beforeRelease(self)
    if let failure { throw failure }
  }
}
