import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline
import TagscopeUI

/// `tagscope listen` in the debugger: the server enqueues into a live session, which writes the
/// live timeline (recorded to `--record` or a temporary file), checks the plan when one is given
/// and wakes the debugger; sources are listed in the header and `s` shows one after the other.
enum ListenInterface {
  /// Runs the server and the debugger until the user quits or a signal arrives; returns a message
  /// for exit code 2.
  static func run(options: ListenOptions, plan: String?) async -> String? {
    let wakeup = Wakeup()
    let timeline: Timeline
    do {
      timeline = try Timeline.live(
        recordingTo: options.recordPath.map { URL(fileURLWithPath: $0) },
        header: RecordingHeader(
          app: "tagscope listen", device: "\(options.host):\(options.port)", started: Date()))
    } catch {
      return "cannot write the recording \(options.recordPath ?? "(temporary)"): \(error)"
    }
    defer { timeline.release(keepTemporary: false) }
    let checker: PlanChecker?
    do {
      checker = try PlanChecker.loadPlan(path: plan, demo: false).map {
        PlanChecker(plan: $0, timeline: timeline) { wakeup.signal() }
      }
    } catch {
      return "\(error)"
    }
    let connections = SourceConnections()
    let session = LiveSession(store: timeline, checker: checker) { update in
      connections.note(update.events)
      wakeup.signal()
    }
    let server: ListenServer
    do {
      let query = QueryService(session: session, timeline: timeline)
      server = try await ListenServer.start(
        configuration: options.configuration, ingest: session, query: query)
    } catch {
      session.close()
      return "cannot listen on \(options.host):\(options.port): \(error)"
    }
    do {
      for log in options.logs { try server.follow(log) }
    } catch {
      try? await server.shutdown()
      session.close()
      return error.description
    }
    let label = "listening on \(options.host):\(server.port)" + server.proxyDescription
    let source = InspectorTimelineSource(
      timeline: timeline, sourceLabel: label, plan: checker, connections: { connections.snapshot() })
    let result = await Debugger.runDetached(source, mode: .live, wakeup: wakeup)
    try? await server.shutdown()
    session.close()
    if case .failure(let error) = result { return error.description }
    return nil
  }
}
