import Foundation
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// The one composition root of a live session: `listen` and `proxy` (in the debugger or
/// headless) and `demo` start it and observe it (``LiveObserver``); none builds a part itself.
///
/// It builds, in this order, the timeline, the recording (an existing one continued, never
/// truncated: ``LiveRecording``), the plan check, the live session, the query service and the
/// servers (listen, proxy, followed logs), then gives the same notices on every path: a public
/// bind warned about, where the session listens, reads and records.
public enum LiveSessionRoot {
  /// What went wrong before the session could run.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Starts a session of `options`, told to `observer`; returns its running parts, to be stopped
  /// with ``LiveSessionParts/shutdown(beforeRelease:)``. Throws ``Failure``, or ``BindFailure``
  /// for a port or address the server cannot use.
  public static func start(_ options: LiveSessionOptions, observer: LiveObserver) async throws
    -> LiveSessionParts
  {
    let listen = options.listen
    let header = RecordingHeader(app: options.app, device: options.headerDevice, started: Date())
    let timeline: Timeline
    do { timeline = try Timeline.live(header: header) } catch {
      throw Failure(description: "cannot write the session's timeline: \(error)")
    }
    let session: LiveSession
    let configuration: ListenConfiguration
    do {
      let store: any LiveStore
      (store, configuration) = try LiveRecording.attach(
        to: timeline, options: listen, header: header, notices: observer.notice)
      let checker = options.plan.map {
        PlanChecker(plan: $0, timeline: timeline, onChange: observer.planChanged)
      }
      session = LiveSession(store: store, checker: checker, capacity: options.capacity) { update in
        if let failure = update.writeFailure {
          observer.notice("cannot write the recording \(failure.subject): \(failure.reason)")
        }
        observer.update(update)
      }
    } catch {
      timeline.release(keepTemporary: false)
      throw error
    }
    let recording = listen.recordPath.map { ", recording to \(TerminalText.sanitize($0))" } ?? ""
    guard options.serves else {
      return LiveSessionParts(
        timeline: timeline, session: session, server: nil, description: String(recording.dropFirst(2)))
    }
    let server: ListenServer
    do {
      server = try await startServer(
        listen, configuration: configuration, session: session, timeline: timeline)
    } catch {
      session.close()
      timeline.release(keepTemporary: false)
      throw error
    }
    if let warning = LiveRecording.publicBindWarning(listen) { observer.notice(warning) }
    let description =
      "listening on \(listen.host):\(server.port)" + server.proxyDescription
      + listen.logs.map { ", reading the \($0.format.rawValue) log \(TerminalText.sanitize($0.path))" }
      .joined()
      + recording
    observer.notice(description)
    return LiveSessionParts(timeline: timeline, session: session, server: server, description: description)
  }

  /// The listen server (and proxy) answering the query API from `timeline`, following the logs.
  private static func startServer(
    _ listen: ListenOptions, configuration: ListenConfiguration, session: LiveSession, timeline: Timeline
  ) async throws -> ListenServer {
    let server: ListenServer
    do {
      let query = QueryService(session: session, timeline: timeline, recordingPath: listen.recordPath)
      server = try await ListenServer.start(configuration: configuration, ingest: session, query: query)
    } catch {
      // A port or address refused is said in the user's words (``BindFailure``), for the command to name.
      throw (error as? BindFailure)
        ?? Failure(description: "cannot listen on \(listen.host):\(listen.port): \(error)")
    }
    do {
      for log in listen.logs { try server.follow(log) }
    } catch {
      try? await server.shutdown()
      throw Failure(description: error.description)
    }
    return server
  }
}
